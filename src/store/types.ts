/**
 * The BoardStore port: everything the board keeps itself, apart from the
 * task system it reads through the `TaskSource` port. One interface per
 * concern (the files beside this one); an adapter is one folder
 * (`redis/`, `memory/`) that implements them all, and one contract suite
 * (`tests/contract/board_store_test.ts`) holds every adapter to the same
 * answers.
 *
 * Every method is required: the board never asks whether a store keeps
 * something. What another replica must see lives in a shared store (Redis
 * under the board's root); the memory store keeps it in the process.
 *
 * @module
 */

import type { AlertStore } from "./alerts.ts";
import type { AuditStore } from "./audit.ts";
import type { BacklogSampleStore } from "./backlog_samples.ts";
import type { LeaseStore } from "./leases.ts";
import type { OperationsStore } from "./operations.ts";
import type { ScanSlotStore } from "./scan_slots.ts";
import type { ScheduleRunStore } from "./schedule_runs.ts";
import type { SessionStore } from "./sessions.ts";

export type {
  AlertStore,
  AuditStore,
  BacklogSampleStore,
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
    BacklogSampleStore {
  /**
   * Whether boards other than the one given this store may use it too (Redis:
   * every replica; a memory store shared by the boards over one memory
   * source): a board that closes then leaves its bulk operations to them.
   */
  readonly shared: boolean;
  /** Releases what the store opened itself (never a connection it was lent). */
  close(): Promise<void>;
}
