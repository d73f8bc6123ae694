/**
 * The leader's passes over the day of throughput, on a real redis-server:
 * after its first pass it reads only the minutes since the last and those
 * still counted into, never the whole day again; a new leader goes on from
 * what the last one wrote; a task gone from the list is dropped; and no
 * pass runs while no board was asked.
 */

import assert from "node:assert/strict";
import { keepThroughput, SETTLE_MINUTES } from "../../src/samplers/throughput.ts";
import { Leadership } from "../../src/leadership.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { decodeMinutes } from "../../src/store/throughput.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const MINUTE = 60_000;
const KEPT = "taskora:board:throughput";

Deno.test("a keeper reads the whole day once, then only the last minutes; a new one goes on from the store", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, tasks: ["mail", "resize"] }, timers);
  const keeper = (holder: string) =>
    keepThroughput({
      source,
      store: source.keptThroughput,
      leadership: new Leadership(null, { holder }),
      timers,
      clock: Date.now,
    });
  const first = keeper("first");
  const second = keeper("second");
  try {
    const minute = Date.now() - (Date.now() % MINUTE);
    const old = minute - 90 * MINUTE;
    const recent = minute - SETTLE_MINUTES * MINUTE;
    await client.set(metricKey("mail", "completed", old), "4");
    await client.set(metricKey("mail", "failed", recent), "1");
    const kept = async (field: string) =>
      decodeMinutes(await client.hGet(KEPT, field) ?? "").map((
        m,
      ) => [m.minute, m.completed, m.failed]);

    await first.pass();
    assert.equal(await client.exists(KEPT), 0, "nobody asked: no pass");
    await source.keptThroughput.noteDemand(60_000);
    await first.pass();
    assert.deepEqual(await kept("t:mail"), [[old, 4, 0], [recent, 0, 1]]);
    assert.deepEqual(await kept("t:resize"), []);
    assert.deepEqual(await kept("@total"), [[old, 4, 0], [recent, 0, 1]]);

    // A minute 90 minutes old is not read again; the last ones are, as counting may go on in them.
    await client.set(metricKey("mail", "completed", old), "40");
    await client.set(metricKey("mail", "failed", recent), "2");
    await first.pass();
    assert.deepEqual(await kept("t:mail"), [[old, 4, 0], [recent, 0, 2]]);

    // A new leader starts from the store: the whole day is not read again.
    await second.pass();
    assert.deepEqual(await kept("t:mail"), [[old, 4, 0], [recent, 0, 2]]);
  } finally {
    first.close();
    second.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("a task gone from the list is dropped from the kept day and its total", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const listed = ["mail", "resize"];
  const source = new RedisTaskSource({ url: redis.url, knownTasks: () => listed }, timers);
  const keeper = keepThroughput({
    source,
    store: source.keptThroughput,
    leadership: new Leadership(null),
    timers,
    clock: Date.now,
  });
  try {
    const minute = Date.now() - (Date.now() % MINUTE) - 10 * MINUTE;
    await client.set(metricKey("mail", "completed", minute), "3");
    await client.set(metricKey("resize", "completed", minute), "5");
    await source.keptThroughput.noteDemand(60_000);
    await keeper.pass();
    assert.equal(Number(await client.hExists(KEPT, "t:resize")), 1);
    listed.pop();
    await client.del(metricKey("resize", "completed", minute));
    await source.refreshTasks();
    await keeper.pass();
    assert.equal(Number(await client.hExists(KEPT, "t:resize")), 0);
    assert.deepEqual(decodeMinutes(await client.hGet(KEPT, "@total") ?? ""), [
      { minute, completed: 3, failed: 0 },
    ]);
  } finally {
    keeper.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("past its cap of tasks the keeper keeps no total: it is read from the counters", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, tasks: ["mail", "resize"] }, timers);
  const keeper = keepThroughput({
    source,
    store: source.keptThroughput,
    leadership: new Leadership(null),
    timers,
    clock: Date.now,
    maxTasks: 1,
  });
  try {
    await source.keptThroughput.noteDemand(60_000);
    await keeper.pass();
    assert.deepEqual(Object.keys(await client.hGetAll(KEPT)).sort(), [
      "@asOf",
      "@minute",
      "t:mail",
    ]);
    assert.equal((await source.keptThroughput.read())?.series, null, "no total");
    assert.equal((await source.keptThroughput.read("resize"))?.series, null);
  } finally {
    keeper.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});
