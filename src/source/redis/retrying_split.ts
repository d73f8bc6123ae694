/**
 * Which delayed-set members of each task are `retrying` (not `delayed`),
 * kept in memory so that no request has to read every job hash to split
 * the set: fed by the task events the source's reader sees, reconciled by a
 * background pass (`retrying_reconcile.ts`).
 *
 * @module
 */

import type { TaskEvent } from "../types.ts";

/** Events that say nothing about whether a job waits for a retry. */
const NEUTRAL_EVENTS: ReadonlySet<string> = new Set([
  "progress",
  "stalled",
  "collect",
  "debounced",
]);

/** Ids kept over all tasks, by default (about 100 bytes each). */
export const DEFAULT_MAX_IDS = 100_000;

/** One task's split. */
interface TaskSplit {
  /** Ids known to be retrying. */
  ids: Set<string>;
  /** Retrying jobs counted but not kept (past the id cap): the figure is an estimate. */
  untracked: number;
  /** When the last finished reconcile started (ms), or null before the first. */
  asOf: number | null;
  /** The reconcile under way: events seen during it, id → retrying now. */
  pass: Map<string, boolean> | null;
  passStartedAt: number;
  /** The pass saw more events than it may keep: its result is an estimate. */
  passOverflow: boolean;
}

/** What {@link RetryingSplit.read} says of a task. */
export interface SplitReading {
  /** Retrying jobs (before clamping to the delayed set's size). */
  retrying: number;
  /**
   * Since when the figure is exact (ms): now while the events have been
   * followed since before the last reconcile, else the start of that
   * reconcile; null when the task was never reconciled.
   */
  asOf: number | null;
}

/**
 * The per-source split of each task's delayed set. Memory is bounded by
 * `maxIds` ids kept plus at most as many events remembered during
 * reconciles; past the cap, jobs are counted without their ids and the
 * figure is an estimate (its `asOf` stays the reconcile's) until the next
 * reconcile.
 */
export class RetryingSplit {
  readonly #maxIds: number;
  readonly #tasks = new Map<string, TaskSplit>();
  #kept = 0;
  /** Since when events have been followed without a break (ms), or null while they are not. */
  #followingSince: number | null = null;
  readonly #now: () => number;

  /** Creates an empty split; `now` is the clock (tests). */
  constructor(maxIds = DEFAULT_MAX_IDS, now: () => number = Date.now) {
    this.#maxIds = maxIds;
    this.#now = now;
  }

  /** Ids kept over all tasks. */
  get kept(): number {
    return this.#kept;
  }

  /** Whether events are followed now. */
  get isFollowing(): boolean {
    return this.#followingSince !== null;
  }

  /** Events are followed from now on (`true`), or no longer (`false`). */
  following(on: boolean): void {
    if (!on) this.#followingSince = null;
    else this.#followingSince ??= this.#now();
  }

  /** Applies one task event: `retrying` adds its job, any other lifecycle event removes it. */
  observe(event: TaskEvent): void {
    if (NEUTRAL_EVENTS.has(event.event) || event.jobId === "") return;
    const split = this.#split(event.task);
    const retrying = event.event === "retrying";
    if (retrying) this.#add(split, event.jobId);
    else this.#delete(split, event.jobId);
    if (split.pass) {
      if (split.pass.size < this.#maxIds) split.pass.set(event.jobId, retrying);
      else split.passOverflow = true;
    }
  }

  /** The board itself moved a job out of retrying (a cancel). */
  forget(task: string, jobId: string): void {
    this.observe({ task, event: "cancelled", jobId, fields: {}, at: this.#now() });
  }

  /** The figure of a task. */
  read(task: string): SplitReading {
    const split = this.#tasks.get(task);
    if (!split) return { retrying: 0, asOf: null };
    const asOf = this.live(task) ? this.#now() : split.asOf;
    return { retrying: split.ids.size + split.untracked, asOf };
  }

  /**
   * Whether the task's figure is exact now: reconciled while its events
   * were followed, followed since without a break, and no id past the cap.
   */
  live(task: string): boolean {
    const split = this.#tasks.get(task);
    return split !== undefined && split.asOf !== null && split.untracked === 0 &&
      this.#followingSince !== null && this.#followingSince <= split.asOf;
  }

  /** When the task was last reconciled (the start of that pass), or null. */
  reconciledAt(task: string): number | null {
    return this.#tasks.get(task)?.asOf ?? null;
  }

  /** Whether the task's figure is an estimate (ids past the cap). */
  estimated(task: string): boolean {
    return (this.#tasks.get(task)?.untracked ?? 0) > 0;
  }

  /** How many more ids the cap lets a reconcile keep. */
  get room(): number {
    return this.#maxIds - this.#kept;
  }

  /** A reconcile of the task starts: events from now on are remembered for {@link finish}. */
  begin(task: string): void {
    const split = this.#split(task);
    split.pass = new Map();
    split.passStartedAt = this.#now();
    split.passOverflow = false;
  }

  /** The reconcile was given up: the split stays as it was. */
  abandon(task: string): void {
    const split = this.#tasks.get(task);
    if (split) split.pass = null;
  }

  /**
   * The reconcile found these retrying ids (and `more` beyond those it
   * could keep): they replace the split, corrected by the events seen
   * while it ran (the last event of an id wins over what the walk read).
   */
  finish(task: string, found: Iterable<string>, more = 0): void {
    const split = this.#split(task);
    const pass = split.pass ?? new Map<string, boolean>();
    this.#kept -= split.ids.size;
    split.ids = new Set();
    split.untracked = more + (split.passOverflow ? 1 : 0);
    for (const id of found) if (pass.get(id) !== false) this.#add(split, id);
    for (const [id, retrying] of pass) if (retrying) this.#add(split, id);
    split.asOf = split.passStartedAt;
    split.pass = null;
  }

  /** Forgets tasks that are no longer listed. */
  retain(tasks: readonly string[]): void {
    const keep = new Set(tasks);
    for (const [task, split] of this.#tasks) {
      if (keep.has(task)) continue;
      this.#kept -= split.ids.size;
      this.#tasks.delete(task);
    }
  }

  #split(task: string): TaskSplit {
    let split = this.#tasks.get(task);
    if (!split) {
      split = {
        ids: new Set(),
        untracked: 0,
        asOf: null,
        pass: null,
        passStartedAt: 0,
        passOverflow: false,
      };
      this.#tasks.set(task, split);
    }
    return split;
  }

  #add(split: TaskSplit, id: string): void {
    if (split.ids.has(id)) return;
    if (this.#kept >= this.#maxIds) {
      split.untracked++;
      return;
    }
    split.ids.add(id);
    this.#kept++;
  }

  #delete(split: TaskSplit, id: string): void {
    if (split.ids.delete(id)) this.#kept--;
  }
}
