/**
 * How the Redis source reads the counts of many tasks: in round trips of at
 * most `SNAPSHOT_TASKS_PER_TRIP` tasks, so that no one batch outlasts the
 * command timeout (at 10,000 tasks one batch took 2 to 4 s on two busy
 * cores, past the default 2 s: the overview was a 503), on a real
 * redis-server.
 */

import assert from "node:assert/strict";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { SNAPSHOT_TASKS_PER_TRIP } from "../../src/source/redis/queue_snapshot.ts";
import type { Command } from "../../src/source/redis/client.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

Deno.test("the counts of many tasks are read in round trips of bounded tasks, every task answered", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url });
  try {
    const tasks = Array.from({ length: 2.5 * SNAPSHOT_TASKS_PER_TRIP }, (_, i) => `task-${i}`);
    const last = tasks.at(-1)!;
    await writeJob(client, { task: last, state: "waiting" });
    await writeJob(client, { task: last, state: "failed", attempt: 3, maxAttempts: 3 });
    await source.listTasks();
    const trips: number[] = [];
    const pipeline = source.connection.pipeline.bind(source.connection);
    source.connection.pipeline = (commands: readonly Command[]) => {
      trips.push(commands.length);
      return pipeline(commands);
    };
    const snapshots = await source.getQueueSnapshots(tasks);
    const snapshotTrips = trips.filter((commands) => commands > 1);
    assert.ok(snapshotTrips.length >= 3, `${snapshotTrips.length} round trip(s)`);
    for (const commands of trips) assert.ok(commands <= SNAPSHOT_TASKS_PER_TRIP, `${commands}`);
    assert.equal(snapshots.size, tasks.length);
    assert.equal(snapshots.get(last)!.stats.waiting, 1);
    assert.equal(snapshots.get(last)!.stats.failed, 1);
    assert.equal(snapshots.get(tasks[0])!.stats.waiting, 0);
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
