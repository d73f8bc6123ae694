/**
 * The HistoryStore contract on a real 3-master Redis Cluster: every key of
 * the history carries one hash tag, so each script (a batch, a cap, a
 * search, a trim) runs on one node, including the job hashes a cap or a
 * search names from the root.
 */

import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { historyStoreContract } from "../contract/history_store_contract.ts";
import { startCluster } from "../helpers/redis_cluster.ts";

const cluster = await startCluster();

historyStoreContract("redis cluster history", async (limits) => {
  await cluster.flushAll();
  const connection = new RedisConnection({ cluster: { rootNodes: cluster.rootNodes } });
  await connection.ready();
  const store = createRedisHistoryStore({ connection, limits });
  return { store, close: () => connection.close() };
});

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await cluster.stop();
});
