/**
 * A task's drain forecast: how fast jobs arrive and finish over the last
 * 10 and 60 minutes, and whether the backlog drains (in about how long) or
 * grows (by how many a minute).
 *
 * taskora counts no dispatches, so arrivals are derived: the jobs that
 * finished in a window (taskora's per-minute `completed` and `failed`
 * counters) plus how much the backlog grew over it. The backlog is what
 * can drain within the forecast's horizon: waiting and active jobs, and
 * delayed and retrying ones due within {@link FORECAST_HORIZON_MS} (a job
 * delayed 3 h cannot drain in the next minutes: it arrives when it comes
 * within the horizon). The backlog at the window's start comes from the
 * samples the board's leader keeps, one a minute; a window runs from its
 * sample's own time, not its minute, and counts only the jobs that
 * finished after it (the sample notes what its minute's counters held
 * then). Jobs cancelled or expired leave the backlog uncounted, so
 * arrivals err low by them.
 *
 * @module
 */

import type { QueueStats } from "./states.ts";
import type { ThroughputBucket } from "./throughput.ts";

/** The windows a forecast looks back over, minutes. */
export const FORECAST_WINDOWS: readonly number[] = [10, 60];

/** How often the leader samples every task's backlog, ms. */
export const BACKLOG_SAMPLE_MS = 60_000;

/** How long a backlog sample is kept, ms: the longest window and a few minutes. */
export const BACKLOG_KEEP_MS = 65 * 60_000;

/** Most tasks one sample holds (the tasks the store lists first). */
export const BACKLOG_SAMPLE_TASKS = 10_000;

/**
 * How far ahead the forecast counts delayed and retrying jobs, ms: as far
 * as its longest window looks back. A job due later is no part of the
 * backlog until then.
 */
export const FORECAST_HORIZON_MS = Math.max(...FORECAST_WINDOWS) * 60_000;

/**
 * The jobs a task has yet to finish that can drain within the horizon:
 * waiting, active, delayed and retrying, less `dueLater` (the delayed and
 * retrying ones due after {@link FORECAST_HORIZON_MS}).
 */
export function backlogOf(stats: QueueStats, dueLater: number): number {
  // The two are read apart: a job promoted between them must not count below none.
  const due = Math.max(0, stats.delayed + stats.retrying - dueLater);
  return stats.waiting + stats.active + due;
}

/** One task's backlog in one minute's sample. */
export interface BacklogSample {
  /** When it was taken, ms (within its minute). */
  at: number;
  /** The backlog then ({@link backlogOf}, the horizon counted from `at`). */
  backlog: number;
  /** Jobs the task finished (completed or failed) in the sample's minute before `at`. */
  finishedBefore: number;
}

/** Jobs finished in the minute `now` falls in, by taskora's per-minute counters. */
export function finishedInMinute(buckets: readonly ThroughputBucket[], now: number): number {
  const minute = minuteOf(now);
  const bucket = buckets.find((b) => b.timestamp === minute);
  return bucket ? bucket.completed + bucket.failed : 0;
}

/** The minute a time falls in (its start, ms): what a sample is keyed by. */
export function minuteOf(ms: number): number {
  return Math.floor(ms / 60_000) * 60_000;
}

/** Where the backlog is heading, at a window's rates. */
export type DrainOutlook =
  /** Nothing left to run. */
  | { kind: "empty" }
  /** It shrinks: gone in about `inMs` at the window's net rate. */
  | { kind: "drains"; inMs: number }
  /** It grows by `perMinute` jobs a minute. */
  | { kind: "growing"; perMinute: number }
  /** Jobs wait and as many arrive as finish. */
  | { kind: "steady" };

/** One window of a forecast, with what it rests on. */
export interface ForecastWindow {
  /** The window, minutes (10 or 60). */
  minutes: number;
  /** When the backlog sample it starts from was taken (ms); the window runs from it to `readAt`. */
  from: number;
  /** The backlog then. */
  backlogThen: number;
  /** Jobs finished (completed or failed) since. */
  finished: number;
  /** Jobs that arrived since: `finished + backlog - backlogThen` (never below 0). */
  arrived: number;
  /** Finished per minute. */
  completionRate: number;
  /** Arrived per minute. */
  arrivalRate: number;
  /** Where the backlog is heading at these rates. */
  outlook: DrainOutlook;
}

/** A window the board has no backlog sample for. */
export interface MissingWindow {
  /** The window, minutes. */
  minutes: number;
  /** Why it cannot be told. */
  missing: string;
}

/** The answer of `GET /tasks/{task}/forecast`. */
export interface ForecastResponse {
  /** The task. */
  task: string;
  /** When it was read (ms). */
  readAt: number;
  /** The backlog now: waiting and active jobs, delayed and retrying ones due within the horizon. */
  backlog: number;
  /** Delayed and retrying jobs due after the horizon ({@link FORECAST_HORIZON_MS}): not counted. */
  dueLater: number;
  /** Each of {@link FORECAST_WINDOWS}. */
  windows: (ForecastWindow | MissingWindow)[];
}

/** The figures one window is computed from. */
export interface WindowFigures {
  /** The window, minutes. */
  minutes: number;
  /** The backlog sample it starts from. */
  sample: BacklogSample;
  /** The task's per-minute counters from the sample's minute to `now`'s (older ones are skipped). */
  buckets: readonly ThroughputBucket[];
  /** The backlog now. */
  backlog: number;
  /** Now, ms. */
  now: number;
}

/**
 * One window's rates and outlook, from its sample's time to `now`: the
 * jobs finished are the counters' from the sample's minute on, less what
 * that minute had counted when the sample was taken; arrivals are those
 * plus the backlog's growth; the backlog moves by its change over the
 * window (the arrival rate less the completion rate, but for cancels and
 * expiries), and drains in `backlog` over that rate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forecastWindow } from "./forecast.ts";
 * // Sampled 30 s into minute 0 (500 left, 20 finished before it); 300 finished since, 260 left.
 * const w = forecastWindow({
 *   minutes: 10,
 *   sample: { at: 30_000, backlog: 500, finishedBefore: 20 },
 *   buckets: [{ timestamp: 0, completed: 200, failed: 20 }, { timestamp: 60_000, completed: 100, failed: 0 }],
 *   backlog: 260,
 *   now: 630_000,
 * });
 * assert.deepEqual([w.finished, w.arrived, w.completionRate, w.arrivalRate], [300, 60, 30, 6]);
 * assert.deepEqual(w.outlook, { kind: "drains", inMs: 650_000 });
 * ```
 */
export function forecastWindow(figures: WindowFigures): ForecastWindow {
  const { minutes, sample, buckets, backlog, now } = figures;
  const { at: from, backlog: backlogThen } = sample;
  const sampleMinute = minuteOf(from);
  let finished = -sample.finishedBefore;
  for (const bucket of buckets) {
    if (bucket.timestamp >= sampleMinute) finished += bucket.completed + bucket.failed;
  }
  // A counter's key may have expired or been trimmed since the sample: never fewer than none.
  finished = Math.max(0, finished);
  const spanMinutes = Math.max(1, now - from) / 60_000;
  const arrived = Math.max(0, finished + backlog - backlogThen);
  const completionRate = finished / spanMinutes;
  const arrivalRate = arrived / spanMinutes;
  // The backlog's own change: with cancels and expiries (uncounted arrivals aside) in it.
  const net = (backlog - backlogThen) / spanMinutes;
  let outlook: DrainOutlook;
  if (backlog === 0) outlook = { kind: "empty" };
  else if (net < 0) outlook = { kind: "drains", inMs: Math.round((backlog / -net) * 60_000) };
  else if (net > 0) outlook = { kind: "growing", perMinute: net };
  else outlook = { kind: "steady" };
  return {
    minutes,
    from,
    backlogThen,
    finished,
    arrived,
    completionRate,
    arrivalRate,
    outlook,
  };
}
