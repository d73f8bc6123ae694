/**
 * Boards on one real Redis act as one board for bulk operations (see
 * `operation_replicas.ts`): each board has its own Redis source, as board
 * processes do.
 */

import { createClient } from "redis";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { type CommandSender, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { operationReplicaSuite, redisStore } from "./operation_replicas.ts";

const redis = await startRedis();
const client = createClient({ url: redis.url });
client.on("error", () => {});
await client.connect();

operationReplicaSuite("redis source", async () => {
  await client.flushAll();
  await writeKeyspace(client as unknown as CommandSender, readFixture());
  return await redisStore(() => createRedisSource({ url: redis.url }));
});

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await client.close();
  await redis.stop();
});
