import { createClient } from "redis";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisBoardStore, RedisBoardStore } from "../../src/store/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { boardStoreContract } from "./board_store_contract.ts";

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
    // Two replicas' stores, each on its own connection to one Redis, on one clock.
    const timers = new FakeTimers();
    const [first, second] = [0, 1].map(() =>
      new RedisBoardStore(new RedisConnection({ url: redis.url }), {
        now: () => timers.now(),
        ownsConnection: true,
      })
    );
    return {
      first,
      second,
      timers,
      close: () => Promise.all([first.close(), second.close()]).then(() => {}),
    };
  },
);

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await client.close();
  await redis.stop();
});
