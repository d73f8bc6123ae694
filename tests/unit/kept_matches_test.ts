/**
 * The board's routes are matched once per method and path, not at each
 * request: Hono's `RegExpRouter` refuses the API's routes (a parameter
 * beside a fixed segment, `/dlq/:jobId/retry` and `/dlq/retry-all`), so
 * every request walked the `TrieRouter`'s nodes and built its handler list
 * again (a tenth of a GET of `/api/config` in process, and 4 KB of its 23 KB
 * of garbage). What a kept match must keep: each request's own parameters,
 * the 405 of a method no route has, and a bound on what is kept.
 */

import assert from "node:assert/strict";
import { Hono } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { createBoard } from "../../src/board.ts";
import { KEPT_MATCHES, KeptMatches, LONGEST_KEPT_PATH } from "../../src/http/kept_matches.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";

/** Runs `work` counting the `TrieRouter` matches it makes. */
async function trieMatches(work: () => Promise<void>): Promise<number> {
  const match = TrieRouter.prototype.match;
  let calls = 0;
  TrieRouter.prototype.match = function (this: TrieRouter<unknown>, method, path) {
    calls++;
    return match.call(this, method, path);
  };
  try {
    await work();
  } finally {
    TrieRouter.prototype.match = match;
  }
  return calls;
}

Deno.test("the board matches its routes once for GETs of one path", async () => {
  const source = createMemorySource();
  try {
    const calls = await trieMatches(async () => {
      const board = createBoard(source);
      try {
        for (let i = 0; i < 5; i++) {
          const response = await board.fetch(new Request("http://localhost/board/api/config"));
          assert.equal(response.status, 200);
          await response.body?.cancel();
        }
      } finally {
        await board.close();
      }
    });
    assert.equal(calls, 1);
  } finally {
    await source.close();
  }
});

Deno.test("a kept match answers each request with its own parameters", async () => {
  const app = new Hono({ router: new KeptMatches() })
    .get("/jobs/:id", (c) => c.text(c.req.param("id")))
    .post("/jobs/:id/retry", (c) => c.text(`retried ${c.req.param("id")}`));
  const texts = [];
  for (const path of ["/jobs/1", "/jobs/2", "/jobs/1", "/jobs/a%20b"]) {
    texts.push(await (await app.request(path)).text());
  }
  assert.deepEqual(texts, ["1", "2", "1", "a b"]);
  assert.equal(await (await app.request("/jobs/1/retry", { method: "POST" })).text(), "retried 1");
  assert.equal((await app.request("/jobs/1/retry")).status, 404);
});

Deno.test("a kept match keeps at most KEPT_MATCHES paths, none longer than LONGEST_KEPT_PATH", () => {
  const router = new KeptMatches<string>();
  router.add("GET", "/jobs/:id", "job");
  for (let i = 0; i < KEPT_MATCHES + 10; i++) {
    assert.equal(router.match("GET", `/jobs/${i}`)[0][0][0], "job");
  }
  assert.equal(router.kept, KEPT_MATCHES);
  const long = new KeptMatches<string>();
  long.add("GET", "/jobs/:id", "job");
  long.match("GET", `/jobs/${"x".repeat(LONGEST_KEPT_PATH)}`);
  assert.equal(long.kept, 0);
});
