/**
 * Boards on one 3-master Redis Cluster act as one board for bulk
 * operations (see `tests/http/operation_replicas.ts`): the operations hash
 * is one key on one master, the fixture's tasks on the others.
 */

import { createRedisSource } from "../../src/source/redis/mod.ts";
import { readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";
import { operationReplicaSuite, redisStore } from "../http/operation_replicas.ts";

const cluster = await startCluster();
const client = await cluster.client();

operationReplicaSuite("redis cluster source", async () => {
  await cluster.flushAll();
  await writeKeyspace(clusterSender(client), readFixture());
  return await redisStore(() => createRedisSource({ cluster: { rootNodes: cluster.rootNodes } }));
});

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await cluster.stop();
});
