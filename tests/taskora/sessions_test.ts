/**
 * Sign out everywhere on a board given a real taskora App: over the App's
 * ioredis connection the revocations live in its Redis (every replica reads
 * them); on its memory adapter, in a memory store the boards on the App share.
 */

import assert from "node:assert/strict";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { SAME_ORIGIN, sessionBoard, signIn, withClock } from "../helpers/session_board.ts";
import { createTaskora, memoryAdapter, redisAdapter } from "./harness.ts";

/** Ada signs in on two boards of one App, then signs out everywhere on the first. */
async function revokeOnTwoBoards(adapter: unknown): Promise<number> {
  const app = createTaskora({ adapter });
  app.task("double", { handler: (d: { n: number }) => d.n * 2 });
  await app.start();
  try {
    const one = sessionBoard({}, {}, app as never);
    const other = sessionBoard({}, {}, app as never);
    let seenByOther = 0;
    await withClock(1_800_000_000_000, async (advance) => {
      const cookie = await signIn(one.call);
      advance(1000);
      const revoked = await one.call("/board/api/sessions/mine/revoke", {
        method: "POST",
        headers: { cookie, "content-type": "application/json", ...SAME_ORIGIN },
      });
      assert.equal(revoked.status, 200);
      await revoked.body?.cancel();
      const response = await other.call("/board/api/config", { headers: { cookie } });
      seenByOther = response.status;
      await response.body?.cancel();
    });
    await one.board.close();
    await other.board.close();
    return seenByOther;
  } finally {
    await app.close();
  }
}

Deno.test("createBoard(app) on ioredis keeps the revocations in the App's Redis", async () => {
  const redis = await startRedis();
  try {
    assert.equal(await revokeOnTwoBoards(redisAdapter(redis.url)), 401, "shared by both boards");
    await withClient(redis.url, async (client) => {
      // Beside the table's random id (see docs/auth.md: a table lost with Redis's data is told).
      const { table, ...fields } = await client.hGetAll("taskora:board:sessions");
      assert.deepEqual({ ...fields }, { "u:Ada": "1800000001000" });
      assert.equal(typeof table, "string");
    });
  } finally {
    await redis.stop();
  }
});

Deno.test("createBoard(app) on the memory adapter keeps them in the App's memory store", async () => {
  assert.equal(await revokeOnTwoBoards(memoryAdapter()), 401, "shared by the boards on the App");
});
