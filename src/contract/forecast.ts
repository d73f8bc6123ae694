/**
 * A task's drain forecast: how fast jobs arrive and finish over the last
 * 10 and 60 minutes, and whether the backlog drains (in about how long) or
 * grows (by how many a minute).
 *
 * taskora counts no dispatches, so arrivals are derived: the jobs that
 * finished in a window (taskora's per-minute `completed` and `failed`
 * counters) plus how much the backlog (waiting, active, delayed and
 * retrying jobs) grew over it. The backlog at the window's start comes from
 * the samples the board's leader keeps, one a minute while the board is
 * watched; jobs cancelled or expired leave the backlog uncounted, so
 * arrivals err low by them.
 *
 * @module
 */

import type { QueueStats } from "./states.ts";

/** The windows a forecast looks back over, minutes. */
export const FORECAST_WINDOWS: readonly number[] = [10, 60];

/** How often the leader samples every task's backlog, ms. */
export const BACKLOG_SAMPLE_MS = 60_000;

/** How long a backlog sample is kept, ms: the longest window and a few minutes. */
export const BACKLOG_KEEP_MS = 65 * 60_000;

/** Most tasks one sample holds (the tasks the store lists first). */
export const BACKLOG_SAMPLE_TASKS = 10_000;

/** The jobs a task has yet to finish: waiting, active, delayed and retrying. */
export function backlogOf(stats: QueueStats): number {
  return stats.waiting + stats.active + stats.delayed + stats.retrying;
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
  /** The backlog sample it starts from (ms); the window runs from it to `readAt`. */
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
  /** The backlog now: waiting, active, delayed and retrying jobs. */
  backlog: number;
  /** Each of {@link FORECAST_WINDOWS}. */
  windows: (ForecastWindow | MissingWindow)[];
}

/** The figures one window is computed from. */
export interface WindowFigures {
  /** The window, minutes. */
  minutes: number;
  /** When its backlog sample was taken, ms. */
  from: number;
  /** The backlog then. */
  backlogThen: number;
  /** Jobs finished from `from` to `now`. */
  finished: number;
  /** The backlog now. */
  backlog: number;
  /** Now, ms. */
  now: number;
}

/**
 * One window's rates and outlook: arrivals are the jobs finished plus the
 * backlog's growth; the backlog moves by its change over the window (the
 * arrival rate less the completion rate, but for cancels and expiries),
 * and drains in `backlog` over that rate.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forecastWindow } from "./forecast.ts";
 * const w = forecastWindow({ minutes: 10, from: 0, backlogThen: 500, finished: 300, backlog: 260, now: 600_000 });
 * assert.equal(w.arrivalRate, 6);
 * assert.equal(w.completionRate, 30);
 * assert.deepEqual(w.outlook, { kind: "drains", inMs: 650000 });
 * ```
 */
export function forecastWindow(figures: WindowFigures): ForecastWindow {
  const { minutes, from, backlogThen, finished, backlog, now } = figures;
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
