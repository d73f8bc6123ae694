/**
 * The Redis board store answers the runs of the same schedules as the same
 * map while their version is the one it read them at
 * (`src/store/redis/board_runs.ts`): what a list builds from it is then known
 * unchanged by identity. A run noted by this board or by another one on the
 * same Redis, or other schedules asked for, is a new answer. On a real
 * redis-server.
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

Deno.test("the Redis board store answers unchanged runs as the same map, noted ones anew", async () => {
  const redis = await startRedis();
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const other = new RedisTaskSource({ url: redis.url }, timers);
  const store = source.boardStore;
  const names = ["nightly", "hourly"];
  try {
    await store.recordBoardRun("nightly", { jobId: "j-1", at: 1, by: "board" }, 10);
    const first = await store.listBoardRuns(names, 10);
    assert.deepEqual(first.get("nightly"), [{ jobId: "j-1", at: 1, by: "board" }]);
    assert.equal(await store.listBoardRuns([...names], 10), first, "the same schedules: kept");
    assert.notEqual(await store.listBoardRuns(["nightly"], 10), first, "others asked: anew");
    const again = await store.listBoardRuns(names, 10);

    // This board notes a run: its very next answer holds it.
    await store.recordBoardRun("hourly", { jobId: "j-2", at: 2, by: "board" }, 10);
    const noted = await store.listBoardRuns(names, 10);
    assert.notEqual(noted, again);
    assert.deepEqual(noted.get("hourly"), [{ jobId: "j-2", at: 2, by: "board" }]);

    // Another board notes one: a new answer once Redis invalidates the version.
    await other.boardStore.recordBoardRun("nightly", { jobId: "j-3", at: 3, by: "board" }, 10);
    const seen = await waitFor(async () => {
      const runs = await store.listBoardRuns(names, 10);
      return runs.get("nightly")!.length === 2 && runs;
    }, { what: "the other board's run to show" });
    assert.notEqual(seen, noted);
    assert.equal(await store.listBoardRuns(names, 10), seen);
  } finally {
    await other.close();
    await source.close();
    await redis.stop();
  }
});
