/**
 * The BoardStore port: everything the board keeps itself, apart from the
 * task system it reads through the `TaskSource` port. One interface per
 * concern (the files beside this one); an adapter is one folder
 * (`redis/`, `memory/`) that implements them all, and one contract suite
 * (`tests/contract/board_store_test.ts`) holds every adapter to the same
 * answers.
 *
 * Every member is required: the board never asks whether a store keeps
 * something. Two may be null in a store that chooses not to keep them (the
 * change feed's live state and the kept throughput: each saves cost, and
 * the boards on a store without them read the queue directly). What
 * another replica must see lives in a shared store (Redis under the
 * board's root); the memory store keeps it in the process.
 *
 * @module
 */

import type { AlertStore } from "./alerts.ts";
import type { AuditStore } from "./audit.ts";
import type { BacklogSampleStore } from "./backlog_samples.ts";
import type { ChangeFeedStore } from "./feed.ts";
import type { JobHistoryStore } from "./history.ts";
import type { LeaseStore } from "./leases.ts";
import type { OperationsStore } from "./operations.ts";
import type { ScanSlotStore } from "./scan_slots.ts";
import type { ScheduleRunStore } from "./schedule_runs.ts";
import type { SessionStore } from "./sessions.ts";
import type { KeptThroughputStore } from "./throughput.ts";

export type {
  AlertStore,
  AuditStore,
  BacklogSampleStore,
  ChangeFeedStore,
  JobHistoryStore,
  KeptThroughputStore,
  LeaseStore,
  OperationsStore,
  ScanSlotStore,
  ScheduleRunStore,
  SessionStore,
};

/** The port between the board and where it keeps its own state. */
export interface BoardStore
  extends
    AuditStore,
    SessionStore,
    LeaseStore,
    OperationsStore,
    ScanSlotStore,
    AlertStore,
    ScheduleRunStore,
    BacklogSampleStore,
    ChangeFeedStore,
    KeptThroughputStore,
    JobHistoryStore {
  /**
   * Whether boards other than the one given this store may use it too (Redis:
   * every replica; a memory store shared by the boards over one memory
   * source): a board that closes then leaves its bulk operations to them.
   */
  readonly shared: boolean;
  /** Releases what the store opened itself (never a connection it was lent). */
  close(): Promise<void>;
}
