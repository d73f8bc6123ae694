/**
 * The leader's passes over the day of throughput, on a real redis-server:
 * after its first pass it reads only the minutes since the last and those
 * still counted into, never the whole day again; a new leader goes on from
 * what the last one wrote; a task gone from the list is dropped; past its
 * cap of tasks no total is kept; and no pass runs while no board was asked.
 */

import assert from "node:assert/strict";
import {
  keepThroughput,
  SETTLE_MINUTES,
  type ThroughputKeeper,
} from "../../src/samplers/throughput.ts";
import { Leadership } from "../../src/leadership.ts";
import { type RedisSourceOptions, RedisTaskSource } from "../../src/source/redis/mod.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { decodeMinutes } from "../../src/store/throughput.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const MINUTE = 60_000;
const KEPT = "taskora:board:throughput";

/** A Redis source over a fresh redis-server, and keepers on it that lead alone. */
async function withKeepers(
  options: RedisSourceOptions,
  fn: (ctx: {
    source: RedisTaskSource;
    client: Awaited<ReturnType<typeof connectClient>>;
    keeper: (maxTasks?: number) => ThroughputKeeper;
  }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, ...options }, timers);
  const keepers: ThroughputKeeper[] = [];
  const keeper = (maxTasks?: number) => {
    const store = source.boardStore.keptThroughput;
    const leadership = new Leadership(null);
    const made = keepThroughput({ source, store, leadership, timers, clock: Date.now, maxTasks });
    keepers.push(made);
    return made;
  };
  try {
    await fn({ source, client, keeper });
  } finally {
    for (const made of keepers) made.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("a keeper reads the whole day once, then only the last minutes; a new one goes on from the store", async () => {
  await withKeepers({ tasks: ["mail", "resize"] }, async ({ source, client, keeper }) => {
    const [first, second] = [keeper(), keeper()];
    const minute = Date.now() - (Date.now() % MINUTE);
    const old = minute - 90 * MINUTE;
    const recent = minute - SETTLE_MINUTES * MINUTE;
    await client.set(metricKey("mail", "completed", old), "4");
    await client.set(metricKey("mail", "failed", recent), "1");
    const kept = async (field: string) =>
      decodeMinutes(await client.hGet(KEPT, field) ?? "").map((m) => [
        m.minute,
        m.completed,
        m.failed,
      ]);

    await first.pass();
    assert.equal(await client.exists(KEPT), 0, "nobody asked: no pass");
    await source.boardStore.keptThroughput.noteDemand(60_000);
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
  });
});

Deno.test("a task gone from the list is dropped from the kept day and its total", async () => {
  const listed = ["mail", "resize"];
  await withKeepers({ knownTasks: () => listed }, async ({ source, client, keeper }) => {
    const keeps = keeper();
    const minute = Date.now() - (Date.now() % MINUTE) - 10 * MINUTE;
    await client.set(metricKey("mail", "completed", minute), "3");
    await client.set(metricKey("resize", "completed", minute), "5");
    await source.boardStore.keptThroughput.noteDemand(60_000);
    await keeps.pass();
    assert.equal(Number(await client.hExists(KEPT, "t:resize")), 1);
    listed.pop();
    await client.del(metricKey("resize", "completed", minute));
    await source.listTasks({ fresh: true });
    await keeps.pass();
    assert.equal(Number(await client.hExists(KEPT, "t:resize")), 0);
    assert.deepEqual(decodeMinutes(await client.hGet(KEPT, "@total") ?? ""), [
      { minute, completed: 3, failed: 0 },
    ]);
  });
});

Deno.test("past its cap of tasks the keeper keeps no total: it is read from the counters", async () => {
  await withKeepers({ tasks: ["mail", "resize"] }, async ({ source, client, keeper }) => {
    await source.boardStore.keptThroughput.noteDemand(60_000);
    await keeper(1).pass();
    assert.deepEqual(Object.keys(await client.hGetAll(KEPT)).sort(), [
      "@asOf",
      "@minute",
      "t:mail",
    ]);
    assert.equal((await source.boardStore.keptThroughput.read())?.series, null, "no total");
    assert.equal((await source.boardStore.keptThroughput.read("resize"))?.series, null);
  });
});
