/**
 * How the Redis source reads the throughput of many tasks: in round trips
 * of at most `THROUGHPUT_KEYS_PER_TRIP` keys, so that the replies held at
 * once are bounded whatever the number of tasks, on a real redis-server.
 */

import assert from "node:assert/strict";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import {
  ClosedMinutes,
  getThroughputByTask,
  THROUGHPUT_KEYS_PER_TRIP,
} from "../../src/source/redis/throughput.ts";
import type { Command, ScriptCall } from "../../src/source/redis/client.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const MINUTE = 60_000;
const NOW = 29_000_000 * MINUTE + 30_000;

/**
 * The keys one task's script reads: its failed set, and both kinds' counters
 * of the minutes its runs hold (ARGV[3..]: each run's newest minute and length).
 */
function keysRead({ keys, args }: ScriptCall): number {
  const lengths = args.slice(2).filter((_, i) => i % 2 === 1);
  return keys.length + 2 * lengths.reduce((sum: number, n) => sum + Number(n), 0);
}

Deno.test("a throughput read over many tasks goes in round trips of bounded keys, every count kept", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  // Replies get 30 s, not the board's 2 s, as in the other cost tests: this counts keys a
  // trip, and under load ~20 a trip of 50,000 keys' scripts took longer.
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 30_000 });
  try {
    // An hour of both kinds and the failed set is 121 keys a task: several round trips.
    const count = Math.ceil((2.5 * THROUGHPUT_KEYS_PER_TRIP) / 121);
    const tasks = Array.from({ length: count }, (_, i) => `task-${i}`);
    const minute = NOW - (NOW % MINUTE) - 5 * MINUTE;
    for (const task of [tasks[0], tasks[count >> 1], tasks[count - 1]]) {
      await client.set(metricKey(task, "completed", minute), "7");
      await client.set(metricKey(task, "failed", minute), "2");
    }
    const trips: number[] = [];
    const pipeline = source.connection.pipeline.bind(source.connection);
    source.connection.pipeline = (commands: readonly Command[]) => {
      trips.push(commands.reduce((keys, command) => keys + keysRead(command as ScriptCall), 0));
      return pipeline(commands);
    };
    const byTask = await getThroughputByTask(source.connection, tasks, { count: 60, now: NOW });
    assert.ok(trips.length >= 3, `${trips.length} round trip(s)`);
    for (const keys of trips) assert.ok(keys <= THROUGHPUT_KEYS_PER_TRIP, `${keys} keys in one`);
    assert.equal(trips.reduce((a, b) => a + b), count * 121, "every key read once");
    for (const [task, buckets] of byTask) {
      const counted = buckets.find((bucket) => bucket.timestamp === minute)!;
      const written = [tasks[0], tasks[count >> 1], tasks[count - 1]].includes(task);
      assert.deepEqual([counted.completed, counted.failed], written ? [7, 2] : [0, 0], task);
    }
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("a throughput read whose cache holds some minutes asks the others in runs, each minute counted once", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 30_000 });
  try {
    const current = NOW - (NOW % MINUTE);
    // Every minute of the window finished jobs: completed i + 1, failed i % 3 by the counter,
    // and i % 2 failures found only in the failed set.
    for (let i = 0; i < 15; i++) {
      const minute = current - i * MINUTE;
      await client.set(metricKey("report", "completed", minute), String(i + 1));
      if (i % 3 > 0) await client.set(metricKey("report", "failed", minute), String(i % 3));
      if (i % 2 > 0) {
        await client.zAdd("taskora:{report}:failed", { score: minute + 7, value: `j${i}` });
      }
    }
    const asks: ScriptCall[] = [];
    const pipeline = source.connection.pipeline.bind(source.connection);
    source.connection.pipeline = (commands: readonly Command[]) => {
      asks.push(...commands as ScriptCall[]);
      return pipeline(commands);
    };
    const read = (count: number, cache?: ClosedMinutes) =>
      getThroughputByTask(source.connection, ["report"], { count, now: NOW, cache });
    const uncached = await read(15);
    // The last 10 minutes read into a ring that grows no more: of a window of 15 it then holds
    // the closed minutes 3 to 9 ago, between those to read, the last 3 and the oldest 5.
    const cache = new ClosedMinutes({ maxSlots: 10 });
    await read(10, cache);
    asks.length = 0;
    assert.deepEqual(await read(15, cache), uncached, "the held minutes and the read ones");
    const runs = asks[0].args.length / 2 - 1;
    assert.equal(runs, 2, "runs of minutes asked");
    assert.equal(keysRead(asks[0]), 1 + 2 * 8, "the held minutes are not read again");
    const bucket = uncached.get("report")!.find((b) => b.timestamp === current - 5 * MINUTE)!;
    assert.deepEqual([bucket.completed, bucket.failed], [6, 2], "the more of counter and set");
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
