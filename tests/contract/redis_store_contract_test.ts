import { createClient } from "redis";
import { createRedisBoardStore } from "../../src/store/redis/mod.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { boardStoreContract, twoRedisStores } from "./board_store_contract.ts";

const redis = await startRedis();
const client = createClient({ url: redis.url });
client.on("error", () => {});
await client.connect();

boardStoreContract(
  "redis store",
  async () => {
    await client.flushAll();
    const store = createRedisBoardStore({ url: redis.url });
    return { store, close: () => store.close() };
  },
  async () => {
    await client.flushAll();
    return twoRedisStores({ url: redis.url });
  },
);

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await client.close();
  await redis.stop();
});
