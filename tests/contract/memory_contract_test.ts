import { createMemorySource } from "../../src/source/memory/mod.ts";
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
import { readFixture } from "../helpers/fixture.ts";
import { type Seed, sourceContract } from "./source_contract.ts";

const seed: Seed = (dump) => {
  const source = createMemorySource({ seed: dump });
  return Promise.resolve({ source, close: () => source.close() });
};

sourceContract("memory source", seed);
mutationContract("memory source", seed);
lookupContract("memory source", seed);
searchContract("memory source", seed);
livenessContract("memory source", seed);
diagnosisContract("memory source", seed);
workersContract("memory source", seed);
backlogContract("memory source", seed);
drainScanContract("memory source", seed);
bulkContract("memory source", seed);
feedStoreContract("memory source", seed);
alertSnapshotContract("memory source", seed);
boardRunsContract("memory source", seed);
refusalContract("memory source", () => seed(readFixture()));
