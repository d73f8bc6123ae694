/**
 * The TaskSource contract on a real 3-master Redis Cluster (with a replica
 * each): the fixture's tasks hash to different masters, so every read,
 * script and SCAN of the Redis source must route by slot and walk every
 * master to pass. The BoardStore contract runs here too: the board's own
 * keys are written by single-key scripts.
 */

import { createRedisSource } from "../../src/source/redis/mod.ts";
import { writeKeyspace } from "../helpers/fixture.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";
import { mutationContract } from "../contract/mutation_contract.ts";
import { livenessContract } from "../contract/liveness_contract.ts";
import { lookupContract } from "../contract/lookup_contract.ts";
import { type Seed, sourceContract } from "../contract/source_contract.ts";
import { searchContract } from "../contract/search_contract.ts";
import { diagnosisContract } from "../contract/diagnosis_contract.ts";
import { workersContract } from "../contract/workers_contract.ts";
import { backlogContract } from "../contract/backlog_contract.ts";
import { drainScanContract } from "../contract/drain_scan_contract.ts";
import { bulkContract } from "../contract/bulk_contract.ts";
import { alertSnapshotContract } from "../contract/alert_snapshot_contract.ts";
import { boardRunsContract } from "../contract/board_runs_contract.ts";
import { boardStoreContract, twoRedisStores } from "../contract/board_store_contract.ts";
import { createRedisBoardStore } from "../../src/store/redis/mod.ts";

const cluster = await startCluster();
const client = await cluster.client();
/**
 * The sources' and stores' connection: six servers on a loaded machine, and
 * replies get 10 s, not the board's 2 s, as in `sentinel_contract_test.ts`:
 * this contract is about what is read, not when (under load 32-40 a store's
 * first connection took over 2 s and a cap's refusal came back as
 * "Redis is not reachable within 2000 ms").
 */
const where = { cluster: { rootNodes: cluster.rootNodes }, commandTimeoutMs: 10_000 };

const seed: Seed = async (dump) => {
  await cluster.flushAll();
  await writeKeyspace(clusterSender(client), dump);
  const source = createRedisSource(where);
  // The retrying split is kept, not read per request: count it once, as a watched board does.
  await source.reconcileRetrying();
  return { source, close: () => source.close() };
};

sourceContract("redis cluster source", seed);
mutationContract("redis cluster source", seed);
lookupContract("redis cluster source", seed);
livenessContract("redis cluster source", seed);
searchContract("redis cluster source", seed);
diagnosisContract("redis cluster source", seed);
workersContract("redis cluster source", seed);
backlogContract("redis cluster source", seed);
drainScanContract("redis cluster source", seed);
bulkContract("redis cluster source", seed);
alertSnapshotContract("redis cluster source", seed);
boardRunsContract("redis cluster source", seed);
// The board's own keys (the audit trail, leases, alerts, scan slots, ...) on a cluster.
boardStoreContract(
  "redis cluster store",
  async () => {
    await cluster.flushAll();
    const store = createRedisBoardStore(where);
    return { store, close: () => store.close() };
  },
  async () => {
    await cluster.flushAll();
    return twoRedisStores(where);
  },
);

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await cluster.stop();
});
