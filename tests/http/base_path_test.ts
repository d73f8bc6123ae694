/**
 * `basePath`: every base path the board accepts is one that requests reach,
 * and one that no request could reach is refused when the board is created,
 * saying why.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

Deno.test("a basePath no request path can match is refused, naming basePath and why", async () => {
  const source = createMemorySource();
  const cases: Array<[string, RegExp]> = [
    ["/q%62", /percent-encoded/],
    ["/%2e%2e", /percent-encoded/],
    ["/q?x", /query/],
    ["/q#x", /fragment/],
    ["//evil.example", /leading \/\/ names a host/],
    ["/.", /\.\. segments/],
    ["/a/../b", /\.\. segments/],
    ["/a/./b", /\.\. segments/],
    ["/q*", /wildcard/],
    ["/*", /wildcard/],
    ["/:team", /parameter/],
    ["/ops/:team", /parameter/],
    ["/a;b", /cookie/],
    ["/a b", /percent-encode/],
    ["/ü", /percent-encode/],
    ["/a{b}", /percent-encode/],
    ['/b"><script>', /percent-encode/],
  ];
  for (const [basePath, why] of cases) {
    assert.throws(
      () => createBoard(source, { basePath }),
      (error: Error) =>
        error.message.includes(`option "basePath"`) &&
        error.message.includes(JSON.stringify(basePath)) && why.test(error.message),
      basePath,
    );
  }
  await source.close();
});

Deno.test("every basePath the board accepts serves its API and its pages", async () => {
  const source = createMemorySource();
  for (
    const basePath of [
      "/board",
      "/ops/queues",
      "/Ops-Queues_2",
      "/a.b~c",
      "/team:ops",
      "/q@eu",
      "/x!$&'()+,=",
      "/board/",
      "/board//",
      "/ops//queues",
      "/",
      "/...",
    ]
  ) {
    const board = createBoard(source, { basePath });
    // What a browser sends for the URL the board prints: the URL parser's path.
    const home = new URL(`${basePath.replace(/\/+$/, "")}/`, "http://board.test");
    const config = await board.fetch(new Request(new URL("api/config", home)));
    assert.equal(config.status, 200, basePath);
    assert.equal((await config.json()).basePath, basePath.replace(/(.)\/+$/, "$1"), basePath);
    const page = await board.fetch(new Request(home));
    assert.equal(page.status, 200, basePath);
    await page.body?.cancel();
  }
  await source.close();
});
