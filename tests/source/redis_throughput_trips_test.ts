/**
 * How the Redis source reads the throughput of many tasks: in round trips
 * of at most `THROUGHPUT_KEYS_PER_TRIP` keys, so that the replies held at
 * once are bounded whatever the number of tasks, on a real redis-server.
 */

import assert from "node:assert/strict";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import {
  getThroughputByTask,
  THROUGHPUT_KEYS_PER_TRIP,
} from "../../src/source/redis/throughput.ts";
import type { Command, ScriptCall } from "../../src/source/redis/client.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const MINUTE = 60_000;
const NOW = 29_000_000 * MINUTE + 30_000;

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
      trips.push(commands.reduce((keys, command) => keys + (command as ScriptCall).keys.length, 0));
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
