/**
 * How the Redis source loads its Lua scripts when Redis does not know them
 * (a new or restarted server, `SCRIPT FLUSH`): a script the connection never
 * ran is loaded ahead of its first calls, in their round trip; one Redis
 * forgot since is loaded once per script on one server, not once per task
 * whose call answered NOSCRIPT. On a real redis-server, counted by Redis
 * (`INFO commandstats`, `INFO errorstats`).
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

/** What the test's source and Redis are: 200 tasks, and the snapshots' script forgotten by Redis. */
async function withFlushedRedis(
  test: (read: () => Promise<Map<string, number>>, ranBefore: () => Promise<void>) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  // On timers that never move: a lease turn (a script of its own, loaded after the flush too)
  // never lands in the count.
  const source = new RedisTaskSource({ url: redis.url }, new FakeTimers());
  try {
    await fillRedis(client as never, { jobs: 400, tasks: 200 });
    const tasks = await source.listTasks();
    assert.equal(tasks.length, 200);
    const read = async () => {
      const calls = await commandsOf(client, () => source.getQueueSnapshots(tasks));
      const errors = String(await client.sendCommand(["INFO", "errorstats"]));
      calls.set("noscript errors", Number(/errorstat_NOSCRIPT:count=(\d+)/.exec(errors)?.[1] ?? 0));
      return calls;
    };
    const ranBefore = async () => {
      await source.getQueueSnapshots(tasks);
      await client.sendCommand(["SCRIPT", "FLUSH"]);
    };
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    await test(read, ranBefore);
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("a script's first calls over 200 tasks load it once ahead, in their round trip", async () => {
  await withFlushedRedis(async (read) => {
    const calls = await read();
    assert.equal(calls.get("script|load"), 1, "one SCRIPT LOAD for one script");
    // Before: each call answered NOSCRIPT, then sent again once loaded (400 calls, 200 errors).
    assert.equal(calls.get("evalsha"), 200, "each call sent once");
    assert.equal(calls.get("noscript errors"), 0);
  });
});

Deno.test("a script Redis forgot since is loaded once for 200 tasks, not once per task", async () => {
  await withFlushedRedis(async (read, ranBefore) => {
    await ranBefore();
    const calls = await read();
    const loads = calls.get("script|load") ?? 0;
    // Before: one SCRIPT LOAD (the whole source text) per task, 200 of them.
    assert.ok(loads >= 1 && loads <= 2, `${loads} SCRIPT LOADs for one script over 200 tasks`);
    assert.equal(calls.get("evalsha"), 2 * 200, "each call sent, then sent again once loaded");
  });
});
