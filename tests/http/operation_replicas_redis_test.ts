/**
 * Boards on one real Redis act as one board for bulk operations (see
 * `operation_replicas.ts`): each board has its own Redis source, as board
 * processes do.
 */

import { createClient } from "redis";
import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { type CommandSender, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { operationReplicaSuite } from "./operation_replicas.ts";

const redis = await startRedis();
const client = createClient({ url: redis.url });
client.on("error", () => {});
await client.connect();

operationReplicaSuite("redis source", async () => {
  await client.flushAll();
  await writeKeyspace(client as unknown as CommandSender, readFixture());
  const sources: RedisTaskSource[] = [];
  const open = (): TaskSource => {
    const source = createRedisSource({ url: redis.url });
    sources.push(source);
    return source;
  };
  const reader = open();
  const failed = await reader.listJobs("send-email", "failed", 0, 100);
  return {
    source: open,
    failedIds: failed.jobs.map((job) => job.id),
    stateOf: async (id) => (await reader.getJob(id))?.state ?? null,
    close: async () => {
      for (const source of sources) await source.close();
    },
  };
});

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await client.close();
  await redis.stop();
});
