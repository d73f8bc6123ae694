/** The HistoryStore contract on Redis, on a throwaway redis-server. */

import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { historyStoreContract } from "./history_store_contract.ts";

historyStoreContract("redis history", async (limits) => {
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url });
  await connection.ready();
  const store = createRedisHistoryStore({ connection, limits });
  return {
    store,
    close: async () => {
      await store.close();
      await connection.close();
      await redis.stop();
    },
  };
});
