/**
 * Reading the whole live state from Redis (`RedisFeedStore.readLiveState`,
 * what an overview of every task reads at each request) parses what a pass
 * of the leader changed, not every row again: a row or index whose text is
 * the one read last is the object read last; and while no pass wrote since
 * that read, it sends Redis no command: which pass wrote last is served from
 * the tracking connection's cache (`source/redis/tracked_fields.ts`), and a
 * pass of this board's drops it at once. On a real redis-server, its
 * commands counted by Redis.
 */

import assert from "node:assert/strict";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { indexOf, rowOf } from "../contract/feed_store_contract.ts";
import type { LiveState } from "../../src/store/feed.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

Deno.test("the whole live state parses only the rows and index a pass changed", async () => {
  const redis = await startRedis();
  const source = new RedisTaskSource({ url: redis.url });
  try {
    const feed = source.boardStore.feed;
    const rows = [rowOf("a", 1, "healthy"), rowOf("b", 2, "critical")];
    await feed.writeLiveState({ asOf: 1_000, index: indexOf(rows), rows });
    const first = (await feed.readLiveState())!;
    assert.deepEqual(first.rows.get("a"), rows[0]);

    await feed.writeLiveState({ asOf: 2_000 });
    const same = (await feed.readLiveState())!;
    assert.equal(same.asOf, 2_000);
    assert.equal(same.index, first.index, "the index unchanged: not parsed again");
    assert.equal(same.rows.get("a"), first.rows.get("a"));
    assert.equal(same.rows.get("b"), first.rows.get("b"));

    const changed = rowOf("b", 0, "healthy");
    await feed.writeLiveState({ asOf: 3_000, index: indexOf([rows[0], changed]), rows: [changed] });
    const next = (await feed.readLiveState())!;
    assert.equal(next.rows.get("a"), first.rows.get("a"), "a row the pass left alone");
    assert.deepEqual(next.rows.get("b"), changed);
    assert.notEqual(next.index, first.index);
    assert.deepEqual(next.index, indexOf([rows[0], changed]));
  } finally {
    await source.close();
    await redis.stop();
  }
});

Deno.test("the whole live state is read with no command while no pass wrote since the last, even at one asOf", async () => {
  const redis = await startRedis();
  const source = new RedisTaskSource({ url: redis.url });
  const client = await connectClient(redis.url);
  try {
    const feed = source.boardStore.feed;
    const rows = [rowOf("a", 1, "healthy"), rowOf("b", 2, "critical")];
    await feed.writeLiveState({ asOf: 1_000, index: indexOf(rows), rows });
    const first = (await feed.readLiveState())!;

    let again!: LiveState;
    const unchanged = await commandsOf(client, async () => again = (await feed.readLiveState())!);
    assert.deepEqual(Object.fromEntries(unchanged), {}, "the pass's id from the tracking cache");
    assert.equal(again, first, "the state read last, as it stands in Redis");

    // A pass at the same ms (fake timers, a new leader's first) is a write all the same.
    const changed = rowOf("b", 0, "healthy");
    await feed.writeLiveState({ asOf: 1_000, index: indexOf([rows[0], changed]), rows: [changed] });
    let next!: LiveState;
    const moved = await commandsOf(client, async () => next = (await feed.readLiveState())!);
    assert.deepEqual(Object.fromEntries(moved), { hget: 1, hgetall: 1 });
    assert.deepEqual(next.rows.get("b"), changed);
    assert.deepEqual(next.index, indexOf([rows[0], changed]));
  } finally {
    await client.close();
    await source.close();
    await redis.stop();
  }
});
