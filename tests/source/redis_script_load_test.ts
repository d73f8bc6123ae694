/**
 * How the Redis source loads its Lua scripts when Redis does not know them
 * (a new or restarted server, `SCRIPT FLUSH`): once per script on one
 * server, not once per task whose call answered NOSCRIPT, on a real
 * redis-server, counted by Redis (`INFO commandstats`).
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

Deno.test("a first read of 200 tasks loads each script once, not once per task", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  // On timers that never move: a lease turn (a script of its own, loaded after the flush too)
  // never lands in the count.
  const source = new RedisTaskSource({ url: redis.url }, new FakeTimers());
  try {
    await fillRedis(client as never, { jobs: 400, tasks: 200 });
    const tasks = await source.listTasks();
    assert.equal(tasks.length, 200);
    await client.sendCommand(["SCRIPT", "FLUSH"]);
    const calls = await commandsOf(client, () => source.getQueueSnapshots(tasks));
    const loads = calls.get("script|load") ?? 0;
    // Before: one SCRIPT LOAD (the whole source text) per task, 200 of them.
    assert.ok(loads >= 1 && loads <= 2, `${loads} SCRIPT LOADs for one script over 200 tasks`);
    assert.equal(calls.get("evalsha"), 2 * 200, "each call sent, then sent again once loaded");
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
