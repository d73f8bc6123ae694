/**
 * A tracked read's answer is kept while node-redis's client-side cache has
 * dropped nothing of its key (`src/source/redis/counted_cache.ts`,
 * `tracked_fields.ts`): answered again as the same frozen object, and read
 * anew once Redis invalidates the key (a write from another connection),
 * once the board forgets it after its own write, and once the tracking
 * connection is lost (node-redis clears its cache). A key's invalidation
 * leaves another key's answer standing. On a real redis-server.
 */

import assert from "node:assert/strict";
import { RedisConnection } from "../../src/source/redis/client.ts";
import type { TrackedRead } from "../../src/source/redis/tracked_fields.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

const HASH = "tracked-test:hash";
const SET = "tracked-test:next";
const hashRead: TrackedRead = ["HGETALL", HASH];
const setRead: TrackedRead = ["ZRANGE", SET, "0", "-1", "WITHSCORES"];

Deno.test("a tracked answer is the same object until its key is dropped, then read anew", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const connection = new RedisConnection({ url: redis.url, commandTimeoutMs: 10_000 });
  try {
    await client.hSet(HASH, "a", "1");
    await client.zAdd(SET, { score: 5, value: "a" });
    await connection.ready();
    // The first reads may come over the command connection while the tracking one connects.
    const kept = await waitFor(async () => {
      const first = await connection.trackedRead(hashRead);
      return first === await connection.trackedRead(hashRead) && first;
    }, { what: "an answer kept by the tracking connection" });
    assert.deepEqual(kept, ["a", "1"]);
    assert.equal(Object.isFrozen(kept), true, "shared, so frozen");
    const keptSet = await connection.trackedRead(setRead);
    assert.deepEqual(keptSet, ["a", "5"]);
    assert.equal(await connection.trackedRead(setRead), keptSet);

    // Another connection writes the hash: read anew once Redis says; the set's answer stands.
    await client.hSet(HASH, "b", "2");
    const changed = await waitFor(async () => {
      const answer = await connection.trackedRead(hashRead) as string[];
      return answer.length === 4 && answer;
    }, { what: "the other connection's write to show" });
    assert.deepEqual(changed, ["a", "1", "b", "2"]);
    assert.equal(await connection.trackedRead(setRead), keptSet, "another key's answer stands");

    // The board's own write forgets the key: the very next read is made anew.
    const before = await connection.trackedRead(setRead);
    connection.forgetTracked(SET);
    const after = await connection.trackedRead(setRead);
    assert.notEqual(after, before);
    assert.deepEqual(after, ["a", "5"]);

    // The tracking connection is killed: node-redis clears its cache, and nothing kept stands.
    const lastHash = await connection.trackedRead(hashRead);
    const lastSet = await connection.trackedRead(setRead);
    await client.sendCommand(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"]);
    await waitFor(async () => {
      const [hash, set] = [
        await connection.trackedRead(hashRead),
        await connection.trackedRead(setRead),
      ];
      return hash !== lastHash && set !== lastSet;
    }, { what: "the answers read anew after the tracking connection was lost" });
    assert.deepEqual(await connection.trackedRead(hashRead), ["a", "1", "b", "2"]);
  } finally {
    await connection.close();
    client.destroy();
    await redis.stop();
  }
});
