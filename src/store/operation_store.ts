/**
 * Where bulk operations live, so that every board replica on one store acts
 * as one board: each operation's record (what `GET /operations/{id}`
 * shows), what its runner needs to go on (the selection and the cursor,
 * saved after every step), the lease of the replica running it, and the
 * cancel flag any replica may set.
 *
 * Rules every store keeps, each write one atomic step:
 * - creating one is refused while `maxRunning` run in the store;
 * - a save is fenced by the lease: only the replica holding it writes, and
 *   a finished operation is never written again;
 * - finished operations are kept `keepMs` at most, and only the `keep`
 *   newest (trimmed whenever one is created or finishes);
 * - a claim takes over one running operation whose lease ran out.
 *
 * The Redis store keeps them in one hash (`redis/operations.ts`); the memory
 * store in an {@link OperationTable}.
 *
 * @module
 */

import type { BulkOperation, BulkSelector } from "../contract/bulk.ts";
import type { SearchPosition } from "../source/types.ts";

/**
 * How far a runner got, saved after every step; the next runner goes on
 * from there. `ids`: the index of the next id. `state`: the offset of the
 * next member of the state's list or set. `filter`: where the slice being
 * worked on started, its matches, how many of them were acted on, and how
 * many left the state (the next slice starts that much further back).
 */
export type OperationCursor =
  | { ids: number }
  | { offset: number }
  | {
    position: SearchPosition | null;
    slice: { ids: string[]; next: SearchPosition | null } | null;
    index: number;
    left: number;
  };

/** An operation as its store keeps it. */
export interface StoredOperation {
  /** What the board shows; `runner` is the lease holder's. */
  operation: BulkOperation;
  /** The selection as it was given (ids included, at most `MAX_BULK_IDS`). */
  selector: BulkSelector;
  /** A cancel's reason, or null. */
  reason: string | null;
  /** Where the next step starts. */
  cursor: OperationCursor;
  /** A replica asked it to stop. */
  cancelRequested: boolean;
  /** When the runner's lease runs out (ms since the epoch; 0: given back). */
  leaseUntil: number;
}

/** The bounds a store keeps. */
export interface OperationLimits {
  /** Operations running at once in the store. */
  maxRunning: number;
  /** Finished operations kept. */
  keep: number;
  /** How long a finished operation is kept, ms. */
  keepMs: number;
}

/**
 * A runner's save: it renews its lease to `leaseUntil` (0 gives it back)
 * and, with `progress`, saves the record and cursor; a finished status ends
 * the operation (no lease, finished ones trimmed to `limits` at `now`).
 */
export interface OperationSave {
  /** The replica saving. */
  runner: string;
  /** Its lease's new end, ms since the epoch (0 gives it back). */
  leaseUntil: number;
  /** The record and cursor after a step, or null to renew the lease only. */
  progress: { operation: BulkOperation; cursor: OperationCursor } | null;
  /** The bounds an end trims to. */
  limits: OperationLimits;
  /** The saver's clock, ms since the epoch. */
  now: number;
}

/** A save's answer: whether the caller still holds the lease, and whether a cancel was asked. */
export interface LeaseState {
  /** The caller holds the lease (it wrote); false: another replica took over, or it ended. */
  held: boolean;
  /** A replica asked the operation to stop. */
  cancelRequested: boolean;
}

/** A sweep's answer: how many run in the store, and the one it took over (with whose it was). */
export interface OperationClaim {
  /** Operations running in the store. */
  running: number;
  /** The one taken over, and the replica it was taken from; null when none. */
  claimed: { stored: StoredOperation; from: string | null } | null;
}

/** A store of bulk operations (`TaskSource.operations`). */
export interface OperationStore {
  /**
   * Adds a running operation held by its `runner` until `stored.leaseUntil`;
   * false, adding nothing, when `limits.maxRunning` run already.
   */
  create(stored: StoredOperation, limits: OperationLimits, now: number): Promise<boolean>;
  /** One operation, or null. */
  get(id: string): Promise<StoredOperation | null>;
  /** Every operation kept (running or finished), in no order. */
  list(): Promise<BulkOperation[]>;
  /** Saves a step of operation `id` (see {@link OperationSave}), unless its runner lost the lease or it ended. */
  save(id: string, save: OperationSave): Promise<LeaseState>;
  /** Asks a running operation to stop; returns it as it stands, or null for an unknown id. */
  cancel(id: string): Promise<BulkOperation | null>;
  /** Takes over for `runner`, until `leaseUntil`, one running operation whose lease ran out by `now`. */
  claim(runner: string, now: number, leaseUntil: number): Promise<OperationClaim>;
}

/** The ids of the finished operations to drop: past `keepMs`, or past the `keep` newest. */
export function expiredOperations(
  finished: readonly { id: string; finishedAt: number }[],
  limits: OperationLimits,
  now: number,
): string[] {
  return [...finished]
    .sort((a, b) => b.finishedAt - a.finishedAt)
    .filter((op, index) => index >= limits.keep || now - op.finishedAt > limits.keepMs)
    .map((op) => op.id);
}

function copy(stored: StoredOperation): StoredOperation {
  return structuredClone(stored);
}

/**
 * The operations of one process: the memory source's (every board on it
 * sees them), or those of a board whose source keeps none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { OperationTable } from "./operation_store.ts";
 * const table = new OperationTable();
 * assert.equal((await table.list()).length, 0);
 * ```
 */
export class OperationTable implements OperationStore {
  readonly #stored = new Map<string, StoredOperation>();

  create(stored: StoredOperation, limits: OperationLimits, now: number): Promise<boolean> {
    const running = [...this.#stored.values()].filter((s) => s.operation.status === "running");
    if (running.length >= limits.maxRunning) return Promise.resolve(false);
    this.#stored.set(stored.operation.id, copy(stored));
    this.#trim(limits, now);
    return Promise.resolve(true);
  }

  get(id: string): Promise<StoredOperation | null> {
    const stored = this.#stored.get(id);
    return Promise.resolve(stored ? copy(stored) : null);
  }

  list(): Promise<BulkOperation[]> {
    return Promise.resolve([...this.#stored.values()].map((s) => copy(s).operation));
  }

  save(
    id: string,
    { runner, leaseUntil, progress, limits, now }: OperationSave,
  ): Promise<LeaseState> {
    const stored = this.#stored.get(id);
    if (
      !stored || stored.operation.runner !== runner || stored.operation.status !== "running"
    ) {
      return Promise.resolve({ held: false, cancelRequested: false });
    }
    const { cancelRequested } = stored;
    if (progress) {
      stored.operation = { ...structuredClone(progress.operation), runner };
      stored.cursor = structuredClone(progress.cursor);
    }
    stored.leaseUntil = stored.operation.status === "running" ? leaseUntil : 0;
    if (stored.operation.status !== "running") this.#trim(limits, now);
    return Promise.resolve({ held: true, cancelRequested });
  }

  cancel(id: string): Promise<BulkOperation | null> {
    const stored = this.#stored.get(id);
    if (!stored) return Promise.resolve(null);
    if (stored.operation.status === "running") stored.cancelRequested = true;
    return Promise.resolve(copy(stored).operation);
  }

  claim(runner: string, now: number, leaseUntil: number): Promise<OperationClaim> {
    const running = [...this.#stored.values()].filter((s) => s.operation.status === "running");
    const orphan = running.find((s) => s.leaseUntil < now);
    if (!orphan) return Promise.resolve({ running: running.length, claimed: null });
    const from = orphan.operation.runner;
    orphan.operation.runner = runner;
    orphan.leaseUntil = leaseUntil;
    return Promise.resolve({ running: running.length, claimed: { stored: copy(orphan), from } });
  }

  #trim(limits: OperationLimits, now: number): void {
    const finished = [...this.#stored.values()]
      .filter((s) => s.operation.finishedAt !== null)
      .map((s) => ({ id: s.operation.id, finishedAt: s.operation.finishedAt! }));
    for (const id of expiredOperations(finished, limits, now)) this.#stored.delete(id);
  }
}
