/**
 * The `leaseMs` option: a board made from a Redis URL holds every lease it
 * takes (its own, and its source's) for that period, so another board takes
 * over from a dead one within it. The board's turns run on fake timers.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { boardKeys } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

Deno.test("a board's leaseMs is the period of its leases and of its URL source's", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const board = createBoardOn(timers, redis.url, { leaseMs: 2000 });
  try {
    // A request keeps the board watched: its source's background work competes for its lease,
    // and the bulk operations' sweep (each half period) for the board's.
    const response = await board.fetch(new Request("http://localhost/board/api/overview"));
    assert.equal(response.status, 200);
    await response.body?.cancel();
    const keys = ["board", "background"].map((name) => boardKeys().lease(name));
    const ttls = await waitFor(async () => {
      await timers.tick(1000);
      const ttls = await Promise.all(keys.map((key) => client.pTTL(key)));
      return ttls.every((ttl) => ttl > 0) ? ttls : null;
    }, { what: "both leases to be taken" });
    assert.ok(ttls.every((ttl) => ttl <= 2000), `leases of 2 s, not 10: ${ttls}`);
  } finally {
    await board.close();
    await client.close();
    await redis.stop();
  }
});
