/**
 * How long a waiting job's queue takes to reach it, as its diagnosis says
 * ("412 jobs ahead of it: about 3 min"). The rate is the jobs that left
 * the task's queue (completed or failed: a failed job leaves it as surely
 * as a completed one) over the time its workers have actually run within
 * the last {@link RATE_WINDOW_MS}: since the first job they took, when they
 * started within it, so a minute after a start is not read as ten minutes
 * of work. Both come from the newest entries of the task's event stream
 * (taskora writes `active` when a worker takes a job, `completed` or
 * `failed` when one finishes). A job behind a concurrency key at its limit
 * waits for a slot of that key, whatever the task's rate: it drains at the
 * key's rate, and the diagnosis says so instead of an estimate.
 *
 * @module
 */

import { type ConcurrencyHold, RATE_WINDOW_MS } from "./diagnosis.ts";
import { roughDuration } from "./health.ts";

/** Stream entries a queue's rate is read from, newest first. */
export const DRAIN_EVENT_DEPTH = 2_000;

/** What a task's event stream says since a time, read newest first, at most a depth of entries. */
export interface DrainScan {
  /** Entries read: fewer than the depth asked is every entry since the time. */
  scanned: number;
  /** When the oldest entry read was written, ms; null when none was. */
  oldestAt: number | null;
  /** `completed` and `failed` entries among them: jobs that left the queue. */
  finished: number;
  /**
   * When the oldest `active` entry read was written, if no finish came
   * before it (the workers started taking jobs then); null otherwise (a
   * job finished first: they were running before).
   */
  startedAt: number | null;
}

/** Where a rate's span starts. */
export type DrainSince =
  /** The window's start: the workers ran all of it. */
  | "window"
  /** The first job the workers took within the window. */
  | "workersStarted"
  /** The oldest of the entries read: the stream holds more within the window than a read takes. */
  | "lastEntries";

/** How fast a task's queue drains. */
export interface DrainRate {
  /** Jobs that left the queue (completed or failed) over {@link spanMs}. */
  finished: number;
  /** How long, ms. */
  spanMs: number;
  /** Where the span starts. */
  since: DrainSince;
}

/**
 * The rate a scan since `since` (at most `depth` entries) gives at `now`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { drainRateOf } from "./queue_eta.ts";
 * // Workers started 60 s ago (their first take) and 30 jobs left the queue since.
 * const scan = { scanned: 61, oldestAt: 940_000, finished: 30, startedAt: 940_000 };
 * assert.deepEqual(drainRateOf(scan, 400_000, 2_000, 1_000_000), {
 *   finished: 30,
 *   spanMs: 60_000,
 *   since: "workersStarted",
 * });
 * ```
 */
export function drainRateOf(scan: DrainScan, since: number, depth: number, now: number): DrainRate {
  const [from, basis]: [number, DrainSince] = scan.scanned >= depth && scan.oldestAt !== null
    ? [scan.oldestAt, "lastEntries"]
    : scan.startedAt !== null
    ? [scan.startedAt, "workersStarted"]
    : [since, "window"];
  return { finished: scan.finished, spanMs: Math.max(1, now - from), since: basis };
}

/** The rate of a source that reads no stream: the counters of the whole window. */
export function windowRate(finished: number): DrainRate {
  return { finished, spanMs: RATE_WINDOW_MS, since: "window" };
}

/** Whether the job waits for a slot of its concurrency key (taskora checks a limit above 0). */
export function heldByKey(concurrency: ConcurrencyHold | null): concurrency is ConcurrencyHold {
  return concurrency !== null && concurrency.limit > 0 && concurrency.inUse >= concurrency.limit;
}

const SINCE_WORDS: Record<DrainSince, (spanMs: number) => string> = {
  window: () => "at the last 10 minutes' rate",
  workersStarted: () => "at the rate since its workers started",
  lastEntries: (spanMs) => `at the rate of the last ${roughDuration(spanMs)}`,
};

/**
 * What follows "N jobs ahead of it": the wait at the task's rate, or that
 * a concurrency key holds the job (its key's rate, not the task's), or
 * that none of the task's jobs finished. `ahead` null: more than the
 * position read counts, no estimate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queueWait } from "./queue_eta.ts";
 * const rate = { finished: 30, spanMs: 60_000, since: "workersStarted" as const };
 * assert.equal(queueWait(90, rate, null), ": about 3 min at the rate since its workers started");
 * ```
 */
export function queueWait(
  ahead: number | null,
  rate: DrainRate,
  concurrency: ConcurrencyHold | null,
): string {
  if (heldByKey(concurrency)) {
    return `: its concurrency key lets ${concurrency.limit} run at a time: it drains at that ` +
      "key's rate, not the task's";
  }
  if (rate.finished === 0) {
    return rate.since === "window"
      ? ": none of its jobs completed in the last 10 minutes"
      : `: none of its jobs finished in the last ${roughDuration(rate.spanMs)}`;
  }
  if (ahead === null) return "";
  const etaMs = (ahead / rate.finished) * rate.spanMs;
  return `: about ${roughDuration(etaMs)} ${SINCE_WORDS[rate.since](rate.spanMs)}`;
}
