/**
 * The history on the board's Redis, its leader killed with `kill -9` after
 * writing a batch and before the change feed saved its ids: the next leader
 * records the rest, every job once and every attempt once
 * (`history_takeover_scenario.ts`).
 */

import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { killLeaderMidBatch } from "./history_takeover_scenario.ts";

Deno.test("redis history: the leader killed mid-batch, the next records the rest, none lost or doubled", async () => {
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    await killLeaderMidBatch({
      redis,
      historyArgs: ["--history"],
      history: createRedisHistoryStore({ connection }),
      // The write script's input (entries first), with an entry: the batch went to Redis.
      batchSent: '{"entries":[{',
    });
  } finally {
    await connection.close();
    await redis.stop();
  }
});
