/**
 * The bulk operations of one board: each runs server-side as a loop of
 * atomic steps of at most {@link BULK_BATCH} jobs ({@link TaskSource.bulkStep}),
 * reports its progress after each step, can be cancelled between two
 * steps, and ends with what it did and what it skipped. A filter selection
 * walks the state as the search does and acts on each slice's matches.
 *
 * Bounds: at most `maxRunning` operations run at once on a board (another
 * start is refused); finished ones are kept for `keepMs` and only the
 * `keep` newest. Each board has its own registry: nothing is shared
 * between boards, and an operation is seen on the replica that runs it.
 *
 * @module
 */

import {
  BULK_BATCH,
  type BulkAction,
  type BulkOperation,
  MAX_LISTED_SKIPS,
} from "../contract/bulk.ts";
import { BoardError } from "../errors.ts";
import { positionAfterRemoving } from "../source/search_position.ts";
import type { BulkStep, BulkStepResult, SearchPosition, TaskSource } from "../source/types.ts";
import type { MatchReader } from "./bulk_filter.ts";
import { isFilterSelection, type ParsedSelector } from "./bulk_selector.ts";

/** Options of {@link Operations}. */
export interface OperationsOptions {
  /** Operations running at once on the board (default 2). */
  maxRunning?: number;
  /** Finished operations kept (default 20). */
  keep?: number;
  /** How long a finished operation is kept, ms (default one hour). */
  keepMs?: number;
  /** Shortest spacing of two progress reports of one operation, ms (default 200). */
  progressEveryMs?: number;
}

/** What to run. */
export interface OperationSpec {
  /** The source the steps go to. */
  source: TaskSource;
  action: BulkAction;
  selector: ParsedSelector;
  /**
   * The jobs it means to act on (the count taken when it starts); for a
   * filter, the jobs of the range it scans.
   */
  total: number;
  /** Reads a filter selection's matches (a filter selection only). */
  matches?: MatchReader;
  /** Who started it. */
  user: string;
  /** A cancel's reason. */
  reason?: string;
  /** Called with the operation after a step (spaced) and when it ends. */
  onProgress(operation: BulkOperation): void;
  /** Called once when it has ended. */
  onFinish(operation: BulkOperation): void;
}

interface Entry {
  operation: BulkOperation;
  cancelled: boolean;
  run: Promise<void>;
}

/** Lets timers and other requests run between two steps (a memory step never awaits I/O). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function snapshot(operation: BulkOperation): BulkOperation {
  return { ...operation, skippedJobs: [...operation.skippedJobs] };
}

/** The registry and runner of one board's bulk operations. */
export class Operations {
  readonly #maxRunning: number;
  readonly #keep: number;
  readonly #keepMs: number;
  readonly #progressEveryMs: number;
  readonly #entries = new Map<string, Entry>();

  /** Creates an empty registry. */
  constructor(options: OperationsOptions = {}) {
    this.#maxRunning = options.maxRunning ?? 2;
    this.#keep = options.keep ?? 20;
    this.#keepMs = options.keepMs ?? 3_600_000;
    this.#progressEveryMs = options.progressEveryMs ?? 200;
  }

  /**
   * Starts an operation and returns it as it starts; `INVALID_STATE` when
   * `maxRunning` already run.
   */
  start(spec: OperationSpec): BulkOperation {
    this.#prune();
    const running = [...this.#entries.values()].filter((e) => e.operation.status === "running");
    if (running.length >= this.#maxRunning) {
      throw new BoardError(
        "INVALID_STATE",
        `${running.length} bulk operations are running on this board (at most ${this.#maxRunning}` +
          " at once): wait for one to finish, or cancel it",
      );
    }
    const { selector } = spec;
    const operation: BulkOperation = {
      id: crypto.randomUUID(),
      task: selector.task,
      action: spec.action,
      selection: "ids" in selector
        ? { ids: selector.ids.length }
        : isFilterSelection(selector)
        ? { state: selector.state, filter: selector.query }
        : { state: selector.state },
      user: spec.user,
      status: "running",
      total: spec.total,
      scanned: isFilterSelection(selector) ? 0 : null,
      done: 0,
      skipped: 0,
      skippedJobs: [],
      signalled: 0,
      startedAt: Date.now(),
      finishedAt: null,
      error: null,
      errorCode: null,
    };
    const entry: Entry = { operation, cancelled: false, run: Promise.resolve() };
    this.#entries.set(operation.id, entry);
    entry.run = this.#run(entry, spec);
    return snapshot(operation);
  }

  /** An operation of this board (running, or finished and still kept), or null. */
  get(id: string): BulkOperation | null {
    this.#prune();
    const entry = this.#entries.get(id);
    return entry ? snapshot(entry.operation) : null;
  }

  /** Every operation kept, newest first. */
  list(): BulkOperation[] {
    this.#prune();
    return [...this.#entries.values()].map((e) => snapshot(e.operation)).reverse();
  }

  /**
   * Asks a running operation to stop after its current step and waits until
   * it has; null for an unknown id, `INVALID_STATE` for a finished one.
   */
  async cancel(id: string): Promise<BulkOperation | null> {
    const entry = this.#entries.get(id);
    if (!entry) return null;
    if (entry.operation.status !== "running") {
      throw new BoardError(
        "INVALID_STATE",
        `Operation ${id} is ${entry.operation.status}; only a running operation can be cancelled`,
      );
    }
    entry.cancelled = true;
    await entry.run;
    return snapshot(entry.operation);
  }

  /** Stops every running operation (after its current step) and waits for them. */
  async close(): Promise<void> {
    for (const entry of this.#entries.values()) entry.cancelled = true;
    await Promise.all([...this.#entries.values()].map((e) => e.run));
  }

  async #run(entry: Entry, spec: OperationSpec): Promise<void> {
    const { operation } = entry;
    let reportedAt = 0;
    const report = () => {
      if (performance.now() - reportedAt < this.#progressEveryMs) return;
      reportedAt = performance.now();
      spec.onProgress(snapshot(operation));
    };
    const step = async (which: BulkStep): Promise<BulkStepResult> => {
      await nextTurn();
      const lock = await spec.source.getMigrationLock?.();
      if (lock) {
        throw new BoardError(
          "MIGRATION_IN_PROGRESS",
          "taskora started migrating the keyspace: the operation stopped, as every taskora " +
            "process halts its writes then",
        );
      }
      const result = await spec.source.bulkStep!(operation.task, spec.action, which, spec.reason);
      operation.done += result.done.length;
      operation.signalled += result.signalled;
      operation.skipped += result.skipped.length;
      const room = MAX_LISTED_SKIPS - operation.skippedJobs.length;
      if (room > 0) operation.skippedJobs.push(...result.skipped.slice(0, room));
      report();
      return result;
    };
    /** Acts on `ids` batch by batch; how many of them left the state's list or set. */
    const actOn = async (ids: readonly string[]): Promise<number> => {
      let left = 0;
      for (let start = 0; start < ids.length && !entry.cancelled; start += BULK_BATCH) {
        const result = await step({ ids: ids.slice(start, start + BULK_BATCH) });
        // Signalled active jobs stay until their worker stops them; skipped ones were moved on.
        left += result.done.length - result.signalled + result.skipped.length;
      }
      return left;
    };
    try {
      const { selector } = spec;
      if ("ids" in selector) {
        await actOn(selector.ids);
      } else if (spec.matches) {
        // Slice by slice as the search goes; what a slice's actions removed moves the next one back.
        let position: SearchPosition | null = null;
        do {
          await nextTurn();
          const slice = await spec.matches(position);
          operation.scanned = (operation.scanned ?? 0) + slice.scanned;
          const left = await actOn(slice.ids);
          position = slice.next && positionAfterRemoving(selector.state, slice.next, left);
          report();
        } while (position !== null && !entry.cancelled);
      } else {
        // Jobs that arrive while it runs are left: it stops once it has acted on `total`.
        let offset = 0;
        while (!entry.cancelled && operation.done < operation.total) {
          // Members of another state are passed over: look at a full batch, act on what is left.
          const most = operation.total - operation.done;
          const result = await step({ state: selector.state, offset, limit: BULK_BATCH, most });
          offset += result.kept;
          if (result.examined < BULK_BATCH) break;
        }
      }
      operation.status = entry.cancelled ? "cancelled" : "done";
    } catch (error) {
      operation.status = "failed";
      operation.error = error instanceof BoardError ? error.message : "Internal error";
      operation.errorCode = error instanceof BoardError ? error.code : "INTERNAL";
      if (!(error instanceof BoardError)) {
        console.error("queue-board: a bulk operation failed", error);
      }
    }
    operation.finishedAt = Date.now();
    const final = snapshot(operation);
    spec.onProgress(final);
    spec.onFinish(final);
  }

  /** Drops finished operations past `keepMs`, then all but the `keep` newest finished. */
  #prune(): void {
    const now = Date.now();
    const finished = [...this.#entries.values()].filter((e) => e.operation.finishedAt !== null);
    for (const [index, { operation }] of finished.entries()) {
      const tooMany = finished.length - index > this.#keep;
      if (tooMany || now - operation.finishedAt! > this.#keepMs) this.#entries.delete(operation.id);
    }
  }
}
