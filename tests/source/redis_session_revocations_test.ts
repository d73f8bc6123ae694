/**
 * The session revocations in Redis hold the same bound as the in-memory
 * table, with one script per revocation.
 */

import assert from "node:assert/strict";
import { isReplicaBookkeeping } from "../helpers/board_keys.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import {
  MAX_REVOKED_USERS,
  MAX_SIGNED_OUT_SESSIONS,
  RevocationTable,
} from "../../src/store/session_revocations.ts";

Deno.test("Redis keeps signed-out sessions as the in-memory table does: bounded, forgotten once expired or covered", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url, prefix: "p" });
  const table = new RevocationTable();
  try {
    const now = 5000;
    for (let i = 0; i < MAX_SIGNED_OUT_SESSIONS + 50; i++) {
      // The first expired before now (forgotten), then 40 past the bound (folded into their
      // users'); some never expire; names with a "|" are stored whole.
      const signedOut = {
        nonce: `n${i}`,
        user: `us|er${i % 5}`,
        iat: 1000 + i,
        exp: i < 10 ? 4000 : i % 2 === 0 ? null : 9000 + i,
      };
      await source.boardStore.signOutSession(signedOut, now);
      table.signOut(signedOut, now);
    }
    for (const [user, at] of [["us|er2", 1500], [null, 1100]] as const) {
      await source.boardStore.revokeSessions(user, at);
      table.revoke(user, at);
    }
    const { table: id, ...stored } = await source.boardStore.getSessionRevocations();
    assert.equal(typeof id, "string", "the table's id is kept beside it");
    assert.deepEqual(stored, table.read());
    assert.ok(stored.sessions.size <= MAX_SIGNED_OUT_SESSIONS);
    assert.ok(stored.users.size > 0, "the sessions past the bound were folded into their users'");
    assert.equal(stored.sessions.get("n1002"), Infinity, "a cookie with no expiry");
    assert.equal(stored.sessions.get("n1003"), 10_003);
  } finally {
    await source.close();
    await redis.stop();
  }
});

Deno.test("Redis keeps at most MAX_REVOKED_USERS users, as the in-memory table does", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url, prefix: "p" });
  const table = new RevocationTable();
  try {
    const revocations: [string | null, number][] = [
      ...Array.from(
        { length: MAX_REVOKED_USERS + 2 },
        (_, i): [string, number] => [`user${i}`, 1000 + i],
      ),
      ["user7", 10],
      [null, 1005],
      [null, 900],
    ];
    for (const [user, at] of revocations) {
      await source.boardStore.revokeSessions(user, at);
      table.revoke(user, at);
    }
    const { table: id, ...stored } = await source.boardStore.getSessionRevocations();
    assert.equal(typeof id, "string", "the table's id is kept beside it");
    assert.deepEqual(stored, table.read());
    assert.equal(stored.everyone, 1005);
    assert.equal(
      stored.users.size,
      MAX_REVOKED_USERS - 4,
      "the first two folded, 1002–1005 covered",
    );
    await withClient(redis.url, async (client) => {
      // Beside the replicas' bookkeeping (a looked-at source competes for a lease), one hash.
      const keys = (await client.keys("*")).filter((key) => !isReplicaBookkeeping(key));
      assert.deepEqual(keys, ["taskora:p:board:sessions"]);
    });
  } finally {
    await source.close();
    await redis.stop();
  }
});
