/**
 * What the change feed keeps in the board's store ({@link ChangeFeedStore}):
 * the last event id it
 * delivered per task, so that a new leader resumes where the last stopped;
 * the live state the leader keeps (an index of every task, small enough to
 * filter, sort and count, and one row per task, read for the page shown);
 * and whether any replica needs the feed now.
 *
 * Adapters: `redis/feed.ts` (under the board's root, one slot per key) and
 * `memory/feed.ts`.
 *
 * @module
 */

import type { QueueHeads, TaskHealth } from "../contract/health.ts";
import type { TaskRate } from "../contract/latency.ts";
import type { StalledCount } from "../contract/liveness.ts";
import type { QueueStats } from "../contract/states.ts";
import type { HealthCounts, HealthStatus } from "../contract/task_list.ts";
import type { Totals } from "../contract/totals.ts";

/** Task → the id of the last entry of its events stream the feed delivered (`<ms>-<seq>`). */
export type FeedPositions = ReadonlyMap<string, string>;

/** One task as the leader last judged it: what the overview shows of it, and what it judged from. */
export interface LiveRow {
  /** The task name. */
  name: string;
  /** Its counts, read at {@link LiveRow.readAt}. */
  stats: QueueStats;
  /** Since when the `retrying` / `delayed` split of `stats` is exact (ms), or null. */
  retryingAsOf: number | null;
  /** Its queue heads, read with the counts: the latency at any later time comes from them. */
  heads: QueueHeads;
  /** Its verdict, judged at the live state's `asOf`. */
  health: TaskHealth;
  /** Its finished jobs per minute over the last hour, read with the counts. */
  rate: TaskRate;
  /** When a worker last took one of its jobs (its newest `active` event), ms; null when none seen. */
  lastTakenAt: number | null;
  /**
   * How many times taskora's stall check put one of its jobs back to waiting
   * (`stalled` events with `action` `recovered`) in the 15 min before `asOf`.
   */
  reruns: number;
  /** The newest of those re-runs (at most 100), each its time (ms) and job: a new leader counts on from them. */
  rerunLog: [at: number, jobId: string][];
  /** When the counts were read, ms. */
  readAt: number;
  /**
   * Since when the live state followed its takes, ms: with none seen
   * (`lastTakenAt` null), none was taken since then. A new leader counts
   * on from it (the feed resumes from the saved ids), not from `readAt`.
   */
  coveredSince: number;
  /**
   * Its active jobs without a lock, read with the counts (or when its locks
   * were last read), null when the source reads none: with the rest, what a
   * keeper started again takes back rather than read. Absent in a row of an
   * older board: that row's task is read again.
   */
  stalled?: StalledCount | null;
  /** Live locks among its newest active jobs, read when none was taken for too long. */
  running?: number;
}

/** One task in the index: what the filter, the sorts, the groups and the counts read. */
export interface LiveIndexEntry {
  /** The task name. */
  name: string;
  /** Its counts (the sorts by state and the groups add them up). */
  stats: QueueStats;
  /** Since when the `retrying` / `delayed` split of `stats` is exact (ms), or null. */
  retryingAsOf: number | null;
  /** Its verdict (the health filter and sort). */
  health: { status: HealthStatus };
  /** Since when its oldest waiting job waits (the `oldest` sort), or none. */
  latency: { oldestWaiting: { since: number } | null };
}

/** Every task at a glance, with what the overview adds up over all of them. */
export interface LiveIndex {
  /** Every task, by name. */
  tasks: LiveIndexEntry[];
  /** Their counts added up. */
  totals: Totals;
  /** How many have each verdict. */
  healthCounts: HealthCounts;
}

/**
 * What a board marks in the live state when it changed something every
 * replica reads elsewhere: `operations`, a bulk operation started (on any
 * replica). A replica reading the summary each stats interval learns of it
 * there, and reads the thing itself only then, not on a timer of its own.
 */
export type LiveMark = "operations";

/** The index and how old it is: when the leader last brought the live state up to date. */
export interface LiveSummary {
  /** When every figure was last true (ms): the leader's last pass. */
  asOf: number;
  /** The index as of then. */
  index: LiveIndex;
  /** Each mark's last value (a new one at each change); absent when never marked. */
  marks?: Partial<Record<LiveMark, string>>;
}

/** The whole live state: the summary and every task's row, as one pass of the leader left them. */
export interface LiveState extends LiveSummary {
  /** Each task's row, by name. */
  rows: ReadonlyMap<string, LiveRow>;
}

/** One pass of the leader: what changed since the last. */
export interface LiveStateWrite {
  /** When the pass ended (ms): the live state's new `asOf`. */
  asOf: number;
  /** The whole index, when it changed. */
  index?: LiveIndex;
  /** Rows that changed, replacing the ones kept. */
  rows?: readonly LiveRow[];
  /** Tasks gone: their rows are dropped. */
  removed?: readonly string[];
}

/** The change feed's part of the board's store. */
export interface FeedStore {
  /** The last ids saved; empty when the feed never ran on this store. */
  readFeedPositions(): Promise<Map<string, string>>;
  /** Saves the ids of the entries just delivered (and drops those of `removed` tasks). */
  saveFeedPositions(positions: FeedPositions, removed?: readonly string[]): Promise<void>;
  /** Applies one pass of the leader to the live state. */
  writeLiveState(write: LiveStateWrite): Promise<void>;
  /** The live state's `asOf` and index, or null when no leader kept one. */
  readLiveSummary(): Promise<LiveSummary | null>;
  /** The rows of the named tasks, in order; null for a task without one. */
  readLiveRows(tasks: readonly string[]): Promise<(LiveRow | null)[]>;
  /**
   * The summary and every row in one read, for a reader of every task (the
   * summary, then the rows, is two); null when no leader kept one. What a
   * pass left unchanged may be the objects an earlier call returned: never
   * changed in place.
   */
  readLiveState(): Promise<LiveState | null>;
  /** Gives `mark` a new value, read with the summary (see {@link LiveMark}). */
  mark(mark: LiveMark): Promise<void>;
  /** Notes that someone on a replica needs the feed, for `ttlMs` (each replica renews its own need). */
  noteFeedDemand(ttlMs: number): Promise<void>;
  /** Whether any replica noted a need that has not run out. */
  hasFeedDemand(): Promise<boolean>;
}

/**
 * The change feed's concern of the {@link BoardStore}: where the feed and
 * the live state are kept for every board on the store, or null for a
 * store that keeps none (the App's and a lone board's memory store): its
 * boards then read the queue directly, at each request.
 */
export interface ChangeFeedStore {
  /**
   * The feed's positions, live state and demand; null when the store keeps none.
   *
   * @internal its types are the board's own, not yet public: a store of
   * one's own answers null.
   */
  readonly feed: FeedStore | null;
}
