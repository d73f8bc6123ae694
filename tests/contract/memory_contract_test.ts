import { createMemorySource } from "../../src/source/memory/mod.ts";
import { alertSnapshotContract } from "./alert_snapshot_contract.ts";
import { alertSettingsContract } from "./alert_settings_contract.ts";
import { alertStoreContract } from "./alert_store_contract.ts";
import { boardRunsContract } from "./board_runs_contract.ts";
import { auditContract } from "./audit_contract.ts";
import { bulkContract } from "./bulk_contract.ts";
import { feedStoreContract } from "./feed_store_contract.ts";
import { leaseContract } from "./lease_contract.ts";
import { mutationContract } from "./mutation_contract.ts";
import { livenessContract } from "./liveness_contract.ts";
import { diagnosisContract } from "./diagnosis_contract.ts";
import { workersContract } from "./workers_contract.ts";
import { backlogContract } from "./backlog_contract.ts";
import { drainScanContract } from "./drain_scan_contract.ts";
import { operationContract } from "./operation_contract.ts";
import { lookupContract } from "./lookup_contract.ts";
import { searchContract } from "./search_contract.ts";
import { type Seed, sourceContract } from "./source_contract.ts";
import { scanSlotContract } from "./scan_slot_contract.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

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
operationContract("memory source", seed);
auditContract("memory source", seed);
bulkContract("memory source", seed);
scanSlotContract("memory source", () => {
  // Two boards on one memory source share its slots: both handles are the source.
  const timers = new FakeTimers();
  const source = createMemorySource({ now: () => timers.now() });
  return Promise.resolve({ first: source, second: source, timers, close: () => source.close() });
});
leaseContract("memory source", seed);
feedStoreContract("memory source", seed);
alertStoreContract("memory source", seed);
alertSettingsContract("memory source", seed);
alertSnapshotContract("memory source", seed);
boardRunsContract("memory source", seed);
