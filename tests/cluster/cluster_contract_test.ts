/**
 * The TaskSource contract on a real 3-master Redis Cluster (with a replica
 * each): the fixture's tasks hash to different masters, so every read,
 * script and SCAN of the Redis source must route by slot and walk every
 * master to pass.
 */

import { createRedisSource } from "../../src/source/redis/mod.ts";
import { writeKeyspace } from "../helpers/fixture.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";
import { mutationContract } from "../contract/mutation_contract.ts";
import { livenessContract } from "../contract/liveness_contract.ts";
import { operationContract } from "../contract/operation_contract.ts";
import { lookupContract } from "../contract/lookup_contract.ts";
import { type Seed, sourceContract } from "../contract/source_contract.ts";

const cluster = await startCluster();
const client = await cluster.client();

const seed: Seed = async (dump) => {
  await cluster.flushAll();
  await writeKeyspace(clusterSender(client), dump);
  const source = createRedisSource({ cluster: { rootNodes: cluster.rootNodes } });
  // The retrying split is kept, not read per request: count it once, as a watched board does.
  await source.reconcileRetrying();
  return { source, close: () => source.close() };
};

sourceContract("redis cluster source", seed);
mutationContract("redis cluster source", seed);
lookupContract("redis cluster source", seed);
livenessContract("redis cluster source", seed);
operationContract("redis cluster source", seed);

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await cluster.stop();
});
