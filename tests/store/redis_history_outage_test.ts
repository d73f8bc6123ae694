/**
 * Redis going away under the history: a read answers StoreUnavailableError
 * (the board's 503), a write is refused the same way while the connection
 * is down (nothing was sent, so nothing is of unknown outcome), and the
 * store works again by itself once Redis is back, with what it held.
 */

import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { assertRidesOutOutage } from "./history_outage.ts";

Deno.test("redis history: Redis down is a 503; the store recovers by itself with what it held", async () => {
  const redis = await startRedis();
  // The default timeout, not a short one: while Redis is down the connection refuses at once
  // (the test waits until it noticed), and under CI's load a 500 ms limit failed the first
  // `ready()` and writes with Redis up.
  const connection = new RedisConnection({ url: redis.url });
  const store = createRedisHistoryStore({ connection });
  try {
    await connection.ready();
    await assertRidesOutOutage(store, redis, {
      serverName: "Redis",
      noticed: () =>
        waitFor(() => !connection.connected, { what: "the connection to notice Redis is gone" }),
    });
  } finally {
    await connection.close();
    await redis.stop();
  }
});
