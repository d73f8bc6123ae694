import assert from "node:assert/strict";
import { safeRedirect } from "../../src/auth/redirect.ts";

Deno.test("safeRedirect() keeps paths inside the board, query and hash included", () => {
  assert.equal(safeRedirect("/board/jobs/1?tab=logs#top", "/board"), "/board/jobs/1?tab=logs#top");
  assert.equal(safeRedirect("/board", "/board"), "/board");
  assert.equal(safeRedirect("/anything", "/"), "/anything");
});

Deno.test("safeRedirect() sends everything else home", () => {
  for (
    const target of [
      undefined,
      42,
      "",
      "board/x",
      "https://evil.example/board/",
      "//evil.example/board/",
      "/\\evil.example",
      "/board\\..\\x",
      "javascript:alert(1)",
      "/board/../etc",
      "/board%2F..%2Fetc",
      "/boardwalk",
      "/board/login?redirect=/board/x",
      "/board/\nSet-Cookie:x",
    ]
  ) {
    assert.equal(safeRedirect(target, "/board"), "/board/", String(target));
  }
});
