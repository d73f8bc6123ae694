/**
 * Redis going away under the history: a read answers StoreUnavailableError
 * (the board's 503), a write is refused the same way while the connection
 * is down (nothing was sent, so nothing is of unknown outcome), and the
 * store works again by itself once Redis is back, with what it held.
 */

import assert from "node:assert/strict";
import { StoreUnavailableError } from "../../src/errors.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { entry } from "../contract/history_store_contract.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

Deno.test("redis history: Redis down is a 503; the store recovers by itself with what it held", async () => {
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url, commandTimeoutMs: 500 });
  const store = createRedisHistoryStore({ connection });
  try {
    await connection.ready();
    await store.write({ entries: [entry("before")], cursors: { "send-email": "1-0" } });
    await redis.stop({ keepData: true });
    await waitFor(() => !connection.connected, { what: "the connection to notice Redis is gone" });
    await assert.rejects(() => store.summary("send-email", "before"), StoreUnavailableError);
    await assert.rejects(() => store.write({ entries: [entry("during")] }), StoreUnavailableError);
    await redis.start();
    await waitFor(
      () => store.holding().then(() => true, () => false),
      { what: "the history to reach Redis again" },
    );
    await store.write({ entries: [entry("after")], cursors: { "send-email": "2-0" } });
    assert.ok(await store.summary("send-email", "before"));
    assert.ok(await store.summary("send-email", "after"));
    assert.equal(await store.summary("send-email", "during"), null);
    assert.deepEqual(await store.cursors(), { "send-email": "2-0" });
  } finally {
    await connection.close();
    await redis.stop();
  }
});
