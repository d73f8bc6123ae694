/**
 * A task's scaling signal, for an autoscaler: its effective backlog by
 * kind, how long its oldest waiting job has waited, how fast jobs arrive
 * and finish, and how many workers would serve it within a target wait.
 *
 * The effective backlog is what a worker could take now, which a list's
 * length misses: jobs on the wait list (priority 0), on the prioritized
 * set, delayed or retrying jobs already due (taskora moves them to the
 * wait list only when a worker next claims), and jobs held by their
 * concurrency key (queued, but their key's running jobs are at its limit:
 * counted apart from the list or set they sit on, so the four kinds add
 * up). Active jobs are not backlog: they have a worker.
 *
 * @module
 */

import type { WorkerEstimate } from "./workers.ts";

/** The kinds of a task's effective backlog; each job counts in one. */
export interface BacklogKinds {
  /** On the wait list, not held by its key. */
  waiting: number;
  /** On the prioritized set, not held by its key. */
  prioritized: number;
  /** Delayed or retrying, due now (run-at ≤ now). */
  delayed: number;
  /** Queued but held: its concurrency key's running jobs are at the key's limit. */
  held: number;
}

/** The kind names, in the order the answer and the metric labels give them. */
export const BACKLOG_KINDS: readonly (keyof BacklogKinds)[] = [
  "waiting",
  "prioritized",
  "delayed",
  "held",
];

/** Queued jobs looked at for their key, per list (the next to be taken first). */
export const HELD_SCAN_LIMIT = 1000;

/** How the backlog was read. */
export interface BacklogRead {
  /** The backlog by kind. */
  kinds: BacklogKinds;
  /**
   * Queued jobs looked at for a concurrency key; when fewer than were
   * queued, `held` counts only among them (a lower bound).
   */
  examined: number;
  /** Jobs on the wait list and the prioritized set together. */
  queued: number;
}

/** The default target wait of a suggestion, ms. */
export const DEFAULT_TARGET_WAIT_MS = 60_000;

/** The most workers a suggestion names. */
export const MAX_SUGGESTED_WORKERS = 10_000;

/** A suggested worker count and how it was reached. */
export interface WorkerSuggestion {
  /** Workers (each running one job at a time) to keep up and clear the backlog within the target wait. */
  workers: number;
  /** The formula with its figures, in words. */
  basis: string;
}

/** The figures a suggestion is computed from. */
export interface SuggestionFigures {
  /** Jobs arriving per minute. */
  arrivalRate: number;
  /** A job's run time, ms (the median of the newest finished). */
  runMs: number;
  /** The effective backlog. */
  backlog: number;
  /** The wait to clear it within, ms. */
  targetWaitMs: number;
}

/**
 * Little's law: to keep up, `arrivalRate × runTime` jobs run at once on
 * average; to clear the backlog within the target wait, `backlog × runTime
 * / targetWait` more. `ceil` of their sum, at least 1 while there is a
 * backlog or arrivals, at most {@link MAX_SUGGESTED_WORKERS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { suggestWorkers } from "./scaling.ts";
 * // 120 a minute of 1 s each: 2 busy; 600 waiting, 60 s to clear: 10 more.
 * assert.equal(suggestWorkers({ arrivalRate: 120, runMs: 1000, backlog: 600, targetWaitMs: 60_000 }).workers, 12);
 * assert.equal(suggestWorkers({ arrivalRate: 0, runMs: 1000, backlog: 0, targetWaitMs: 60_000 }).workers, 0);
 * ```
 */
export function suggestWorkers(figures: SuggestionFigures): WorkerSuggestion {
  const { arrivalRate, runMs, backlog, targetWaitMs } = figures;
  const keepUp = (arrivalRate / 60_000) * runMs;
  const clear = (backlog * runMs) / targetWaitMs;
  const needed = keepUp + clear;
  const floor = backlog > 0 || arrivalRate > 0 ? 1 : 0;
  const workers = Math.min(MAX_SUGGESTED_WORKERS, Math.max(floor, Math.ceil(needed - 1e-9)));
  const basis = `ceil(${round(arrivalRate)}/min × ${runMs} ms + ${backlog} × ${runMs} ms / ` +
    `${targetWaitMs} ms) = ceil(${round(keepUp)} + ${round(clear)})` +
    (workers === MAX_SUGGESTED_WORKERS ? `, capped at ${MAX_SUGGESTED_WORKERS}` : "") +
    (workers === floor && needed < floor ? ", at least 1 while jobs wait or arrive" : "");
  return { workers, basis };
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The answer of `GET /tasks/{task}/scaling`. */
export interface ScalingResponse {
  /** The task. */
  task: string;
  /** When it was read (ms). */
  readAt: number;
  /** The effective backlog by kind. */
  backlog: BacklogKinds;
  /** The four kinds added up. */
  backlogTotal: number;
  /** Queued jobs looked at for their key (at most {@link HELD_SCAN_LIMIT} per list); see `queued`. */
  examined: number;
  /** Jobs on the wait list and the prioritized set: when above `examined`, `held` is a lower bound. */
  queued: number;
  /** How long the oldest waiting job has waited, ms (0 when none waits). */
  oldestWaitMs: number;
  /** Jobs arriving per minute over the last 10 minutes (the drain forecast's), null without a sample. */
  arrivalRate: number | null;
  /** Jobs finishing per minute over the same window, null without a sample. */
  completionRate: number | null;
  /** The median run time of the newest finished jobs, ms; null when none finished. */
  runMs: number | null;
  /** Live workers seen, from below (see `GET /tasks/{task}/workers`); null when the source cannot tell. */
  workersSeen: WorkerEstimate | null;
  /** The wait the suggestion clears the backlog within, ms. */
  targetWaitMs: number;
  /** Workers suggested; null without a run time or an arrival rate to compute it from. */
  suggestion: WorkerSuggestion | null;
}
