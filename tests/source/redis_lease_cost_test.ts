/**
 * What a lease turn costs Redis, counted by Redis itself (`INFO
 * commandstats`, the commands scripts run included): every board on the
 * keyspace turns each lease it competes for every third of its period, two
 * leases a board, so a turn's commands are most of what a board watched by
 * a browser but leading nothing costs (`tests/bench/replicas.ts`). Before,
 * a turn tried `SET NX` first, which fails whenever the lease is held (every
 * turn but the first), then ran the holder's script: one command more each
 * turn. A follower, between its takes, only looks how long the lease runs
 * on: one PTTL (before, a take every third of the period, the script).
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

Deno.test("a lease turn is one script: 3 commands as Redis counts them, held, followed or free; a look one PTTL", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = new RedisTaskSource({ url: redis.url, tasks: ["mail"] });
  const store = source.boardStore;
  try {
    // A script Redis does not know yet is loaded once per server (a NOSCRIPT, a load, the script
    // again): not a turn's. Another lease's turn loads it.
    await store.holdLease("alerts", "a", 10_000);
    await store.holdLease("alerts", "a", 10_000);
    const take = await commandsOf(client, () => store.holdLease("board", "a", 10_000));
    const renew = await commandsOf(client, () => store.holdLease("board", "a", 10_000));
    const follow = await commandsOf(client, () => store.holdLease("board", "b", 10_000));
    const look = await commandsOf(client, () => store.leaseRemaining("board"));
    const seen = JSON.stringify(
      { take, renew, follow, look },
      (_, v) => v instanceof Map ? Object.fromEntries(v) : v,
    );
    assert.equal(totalCalls(take), 3, seen);
    assert.equal(totalCalls(renew), 3, seen);
    assert.equal(totalCalls(follow), 3, seen);
    assert.equal(renew.get("set") ?? 0, 0, `a held lease is not tried with SET NX: ${seen}`);
    assert.equal(follow.get("set") ?? 0, 0, `a followed lease is not tried with SET NX: ${seen}`);
    assert.deepEqual(Object.fromEntries(look), { pttl: 1 }, `a follower's look: ${seen}`);
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});
