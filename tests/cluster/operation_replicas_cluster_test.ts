/**
 * Boards on one 3-master Redis Cluster act as one board for bulk
 * operations (see `tests/http/operation_replicas.ts`): the operations hash
 * is one key on one master, the fixture's tasks on the others.
 */

import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";
import { operationReplicaSuite } from "../http/operation_replicas.ts";

const cluster = await startCluster();
const client = await cluster.client();

operationReplicaSuite("redis cluster source", async () => {
  await cluster.flushAll();
  await writeKeyspace(clusterSender(client), readFixture());
  const sources: RedisTaskSource[] = [];
  const open = (): TaskSource => {
    const source = createRedisSource({ cluster: { rootNodes: cluster.rootNodes } });
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
  await cluster.stop();
});
