/**
 * The live state's "none taken for" clock goes on across the feed's stops
 * and starts (a need that lapses, a new leader), against a real
 * redis-server: the feed resumes from the saved ids, so every take since
 * the state began to follow a task was seen. (tests/taskora/workers_test.ts
 * runs the noProgress story through the live state and the direct read.)
 */

import assert from "node:assert/strict";
import { LiveStateKeeper } from "../../src/feed/live_state.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { RedisFeedStore } from "../../src/store/redis/feed.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const MINUTE = 60_000;

Deno.test("a keeper started again counts none taken from when the state began following, not from its last read", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const store = new RedisFeedStore(source.connection);
  const start = Date.now();
  let now = start;
  const keeper = () =>
    new LiveStateKeeper({
      source,
      store,
      clock: () => now,
      health: { maxWaitMs: 10 * MINUTE, maxIdleMs: 5 * MINUTE },
    });
  try {
    await writeJob(client, { task: "work", state: "waiting", ts: start });
    await source.listTasks({ fresh: true });
    const first = keeper();
    await first.started();
    // A pass a minute for four minutes: each sweep reads the task again (its `readAt`).
    for (let minute = 0; minute <= 4; minute++) {
      now = start + minute * MINUTE;
      await first.pass();
    }
    first.stopped();

    // The need lapsed and came back (or another board took the lead) at 6.5 min.
    now = start + 6.5 * MINUTE;
    const second = keeper();
    await second.started();
    await second.pass();
    const [row] = await store.readLiveRows(["work"]);
    assert.equal(row?.health.noProgress, true, JSON.stringify(row?.health));
    assert.equal(
      row?.health.reason,
      "1 waiting, none taken for 6 min (over 5 min): no worker is taking jobs",
    );
    assert.equal(row?.coveredSince, start, "followed since the first start");
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
