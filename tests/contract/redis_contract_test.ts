import { createClient } from "redis";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { type CommandSender, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { alertSnapshotContract } from "./alert_snapshot_contract.ts";
import { boardRunsContract } from "./board_runs_contract.ts";
import { bulkContract } from "./bulk_contract.ts";
import { feedStoreContract } from "./feed_store_contract.ts";
import { mutationContract } from "./mutation_contract.ts";
import { livenessContract } from "./liveness_contract.ts";
import { diagnosisContract } from "./diagnosis_contract.ts";
import { workersContract } from "./workers_contract.ts";
import { backlogContract } from "./backlog_contract.ts";
import { drainScanContract } from "./drain_scan_contract.ts";
import { lookupContract } from "./lookup_contract.ts";
import { searchContract } from "./search_contract.ts";
import { refusalContract } from "./refusal_contract.ts";
import { type Seed, sourceContract } from "./source_contract.ts";

const redis = await startRedis();
const client = createClient({ url: redis.url });
client.on("error", () => {});
await client.connect();

const seed: Seed = async (dump) => {
  await client.flushAll();
  await writeKeyspace(client as unknown as CommandSender, dump);
  const source = createRedisSource({ url: redis.url });
  // The retrying split is kept, not read per request: count it once, as a watched board does.
  await source.reconcileRetrying();
  return { source, close: () => source.close() };
};

sourceContract("redis source", seed);
mutationContract("redis source", seed);
lookupContract("redis source", seed);
searchContract("redis source", seed);
livenessContract("redis source", seed);
diagnosisContract("redis source", seed);
workersContract("redis source", seed);
backlogContract("redis source", seed);
drainScanContract("redis source", seed);
bulkContract("redis source", seed);
feedStoreContract("redis source", seed);
alertSnapshotContract("redis source", seed);
boardRunsContract("redis source", seed);
refusalContract("redis source", () => seed(readFixture()));

// Runs even when --filter skips every test, so no server outlives the run.
Deno.test.afterAll(async () => {
  await client.close();
  await redis.stop();
});
