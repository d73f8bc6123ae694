/**
 * Which pass wrote the live state last (`@write`), served from the tracking
 * connection's cache (`src/source/redis/tracked_fields.ts`) while Redis has
 * not invalidated the hash: another board's write is read once Redis's
 * invalidation arrives, and Redis gone, or frozen with its sockets open,
 * fails the read as it did without the cache, until Redis answers again.
 * On a real redis-server, its commands counted by Redis.
 */

import assert from "node:assert/strict";
import { StoreUnavailableError } from "../../src/errors.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { FeedStore } from "../../src/store/feed.ts";
import { indexOf } from "../contract/feed_store_contract.ts";
import { readsAsTheyChange, rows } from "../helpers/live_state_tracking.ts";
import { startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** A board's source over `redis`, with a short timeout (one is waited for), closed after `fn`. */
async function withSource(
  redis: TestRedis,
  fn: (source: RedisTaskSource, feed: FeedStore) => Promise<void>,
): Promise<void> {
  const source = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 300 });
  try {
    const feed = source.boardStore.feed;
    await feed.writeLiveState({ asOf: 1_000, index: indexOf(rows), rows });
    await feed.readLiveState();
    assert.equal((await feed.readLiveState())?.asOf, 1_000, "served from the cache");
    await fn(source, feed);
  } finally {
    await source.close();
  }
}

Deno.test("another board's pass is read once Redis invalidates the hash; until then no command", async () => {
  const redis = await startRedis();
  try {
    await readsAsTheyChange({ url: redis.url }, redis.port);
  } finally {
    await redis.stop();
  }
});

Deno.test("Redis gone: the cached state is not served, and reads recover by themselves", async () => {
  const redis = await startRedis();
  try {
    await withSource(redis, async (source, feed) => {
      await redis.stop();
      await assert.rejects(feed.readLiveState(), StoreUnavailableError);

      await redis.start();
      await waitFor(() => source.connection.connected, { what: "the source to reconnect" });
      assert.equal(await feed.readLiveState(), null, "the empty Redis, not the cache");
      await feed.writeLiveState({ asOf: 3_000, index: indexOf(rows), rows });
      assert.equal((await feed.readLiveState())?.asOf, 3_000);
    });
  } finally {
    await redis.stop();
  }
});

Deno.test("Redis frozen with its sockets open: once a command goes unanswered, no read is served from the cache", async () => {
  const redis = await startRedis();
  try {
    await withSource(redis, async (source, feed) => {
      redis.pause();
      try {
        // Another of the board's reads (a lease's renewal, INFO) meets the frozen Redis.
        await assert.rejects(source.connection.call(["PING"]), StoreUnavailableError);
        await assert.rejects(feed.readLiveState(), StoreUnavailableError);
      } finally {
        redis.resume();
      }
      const state = await waitFor(() => feed.readLiveState(), { what: "reads to recover" });
      assert.equal(state.asOf, 1_000);
    });
  } finally {
    await redis.stop();
  }
});
