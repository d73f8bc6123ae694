/**
 * A Redis history written before it kept its index by job id (a board
 * before that index, upgraded) is indexed by the leader's feed passes, a
 * bounded batch a pass: each pass adds at most `INDEX_BUDGET` summaries to
 * the index, a job of every age is then found by its id alone, summaries
 * written or trimmed meanwhile stay right, and once none is left a pass
 * asks Redis nothing for it. A history indexed from its first write is
 * found whole at the first look.
 */

import assert from "node:assert/strict";
import { HistoryRecording } from "../../src/feed/history_recording.ts";
import type { Recorder } from "../../src/history/recorder.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { historyKeys } from "../../src/store/redis/history/keys.ts";
import { createRedisHistoryStore, INDEX_BUDGET } from "../../src/store/redis/history/store.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { completedEntry } from "../helpers/history_entries.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

/** Summaries written, over two tasks: more than two passes index. */
const JOBS = 2 * INDEX_BUDGET + 10;
const HOUR = 3_600_000;
const T0 = Date.now() - HOUR;

/** The recording's passes are what is tested; it records nothing here. */
const recordsNothing = { record: () => Promise.resolve(0) } as unknown as Recorder;

Deno.test("redis history: one written before its index by job id is indexed a bounded batch a pass", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const connection = new RedisConnection({ url: redis.url });
  const keys = historyKeys();
  try {
    await connection.ready();
    const store = createRedisHistoryStore({ connection, limits: { retentionMs: HOUR } });
    const taskOf = (i: number) => i % 2 === 0 ? "resize" : "notify";
    await store.write({
      entries: Array.from({ length: JOBS }, (_, i) => completedEntry(taskOf(i), `j${i}`, T0 + i)),
    });
    // The history as a board before the index wrote it.
    await client.del(keys.ids);
    assert.deepEqual(await store.tasksOfJob("j0"), [], "an old job is not found by its id");

    const recording = new HistoryRecording(recordsNothing, store, () => T0 + JOBS);
    await recording.pass(); // the first pass trims too
    assert.equal(await client.zCard(keys.ids), INDEX_BUDGET, "a pass indexes one batch");
    // Meanwhile a job is recorded (and indexed), and the oldest (indexed) ages out.
    await store.write({ entries: [completedEntry("resize", "new", T0 + JOBS)] });
    assert.equal((await store.trim(T0 + HOUR + 1)).removed, 1);
    await recording.pass();
    assert.equal(await client.zCard(keys.ids), 2 * INDEX_BUDGET);
    await recording.pass();
    assert.equal(await client.zCard(keys.ids), await client.zCard(keys.all), "every summary");
    for (const i of [1, INDEX_BUDGET, JOBS - 1]) {
      assert.deepEqual(await store.tasksOfJob(`j${i}`), [taskOf(i)], `j${i}`);
    }
    assert.deepEqual(await store.tasksOfJob("j0"), [], "a trimmed job is not named");
    assert.deepEqual(await store.tasksOfJob("new"), ["resize"]);

    const done = await commandsOf(client, () => recording.pass());
    assert.equal(totalCalls(done), 0, `commands: ${JSON.stringify(Object.fromEntries(done))}`);
  } finally {
    await connection.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("redis history: one indexed from its first write is found whole at the first look", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    const store = createRedisHistoryStore({ connection });
    await store.write({ entries: [completedEntry("resize", "j1", T0)] });
    const first = await commandsOf(client, async () => {
      assert.equal(await store.indexJobIds(), false, "none left");
    });
    const seen = JSON.stringify(Object.fromEntries(first));
    assert.deepEqual([first.get("zcard"), first.get("zadd")], [2, undefined], `one look: ${seen}`);
    const next = await commandsOf(client, async () => {
      assert.equal(await store.indexJobIds(), false);
    });
    assert.equal(next.get("zcard"), undefined, "noted: not looked at again");
  } finally {
    await connection.close();
    await client.close();
    await redis.stop();
  }
});
