/**
 * The bulk operations' part of the {@link BoardStore}: records, cursors,
 * runner leases and cancel flags (see `operation_store.ts`).
 *
 * @module
 */

import type { OperationStore } from "./operation_store.ts";

/** Where bulk operations live for every board on the store. */
export interface OperationsStore {
  /** The operations' table. */
  readonly operations: OperationStore;
}
