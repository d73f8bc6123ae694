/**
 * The BoardStore contract: one suite, run on every adapter (memory, Redis,
 * and Redis on a Cluster), concern by concern.
 */

import { type ConnectionOptions, RedisConnection } from "../../src/source/redis/client.ts";
import { RedisBoardStore } from "../../src/store/redis/mod.ts";
import type { BoardStore } from "../../src/store/types.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { alertSettingsContract } from "./alert_settings_contract.ts";
import { alertStoreContract } from "./alert_store_contract.ts";
import { auditContract } from "./audit_contract.ts";
import { backlogSampleContract } from "./backlog_sample_contract.ts";
import { leaseContract } from "./lease_contract.ts";
import { operationContract } from "./operation_contract.ts";
import { scanSlotContract, type TwoHandles } from "./scan_slot_contract.ts";
import { scheduleRunsContract } from "./schedule_runs_contract.ts";
import { sessionStoreContract } from "./session_store_contract.ts";

/** Makes an empty store, and how to close it. */
export type StoreSeed = () => Promise<{ store: BoardStore; close(): Promise<void> }>;

/**
 * Registers every concern's contract for the stores `seed` makes; `twoHandles`
 * opens two boards' handles on one store (two connections to one Redis).
 */
export function boardStoreContract(
  name: string,
  seed: StoreSeed,
  twoHandles: () => Promise<TwoHandles>,
): void {
  auditContract(name, seed);
  sessionStoreContract(name, seed);
  leaseContract(name, seed);
  operationContract(name, seed);
  scanSlotContract(name, twoHandles);
  alertStoreContract(name, seed);
  alertSettingsContract(name, seed);
  scheduleRunsContract(name, seed);
  backlogSampleContract(name, seed);
}

/** Two replicas' Redis stores, each on its own connection to `where`, on one clock. */
export function twoRedisStores(where: ConnectionOptions): TwoHandles {
  const timers = new FakeTimers();
  const [first, second] = [0, 1].map(() =>
    new RedisBoardStore(new RedisConnection(where), {
      now: () => timers.now(),
      ownsConnection: true,
    })
  );
  return {
    first,
    second,
    timers,
    close: () => Promise.all([first.close(), second.close()]).then(() => {}),
  };
}
