/**
 * The history's charts: `GET /history/rollups` (a range of buckets of every
 * task, one task or one version of it) and `GET /history/week` (a task's
 * last 7 days against the 7 before). Percentiles come from the buckets'
 * merged sketches, never from averaged percentiles.
 *
 * @module
 */

/** The ranges a chart may show, shortest first. */
export const HISTORY_RANGES = ["1h", "6h", "24h", "7d", "30d", "90d"] as const;

/** A chart's range. */
export type HistoryRange = typeof HISTORY_RANGES[number];

/** How fine a rollup is: its buckets are a minute, an hour or a day long. */
export type HistoryResolution = "minute" | "hour" | "day";

/** Three percentiles of durations, ms. */
export interface Percentiles {
  /** The median. */
  p50: number;
  /** The 95th percentile. */
  p95: number;
  /** The 99th percentile. */
  p99: number;
}

/** What the history counted over a span (a bucket, a range, a week). */
export interface HistoryFigures {
  /** Jobs created in the span. */
  arrivals: number;
  /** Runs that completed. */
  completed: number;
  /** Runs that failed for good. */
  failed: number;
  /** Jobs that expired before they ran. */
  expired: number;
  /** Jobs cancelled. */
  cancelled: number;
  /** Attempts that failed and were retried. */
  retried: number;
  /** Runs of jobs that had already ended a run (taskora's stall check ran them again). */
  reruns: number;
  /** failed / (completed + failed), 0–1, or null when none ended so. */
  failureRate: number | null;
  /** Wait (creation to first start) of the jobs that started, or null when none did. */
  wait: Percentiles | null;
  /** Run time of every attempt that ended, or null when none did. */
  run: Percentiles | null;
}

/** One bucket of a chart. */
export interface HistoryChartPoint extends HistoryFigures {
  /** The bucket's start, ms. */
  at: number;
}

/** `GET /history/rollups`: every bucket of the range, oldest first, the empty ones as zeros. */
export interface HistoryRollups {
  /** When the history was read, ms. */
  asOf: number;
  /** The range asked for. */
  range: HistoryRange;
  /** The buckets' resolution: the finest kept over the range in at most 1,500 buckets. */
  resolution: HistoryResolution;
  /** A bucket's length, ms. */
  bucketMs: number;
  /** The first bucket's start, ms. */
  from: number;
  /** The end of the last bucket (the one `asOf` falls in, still counting), ms. */
  to: number;
  /** The task, or null for every task. */
  task: string | null;
  /** The task's version, or null for all of them. */
  version: number | null;
  /** The buckets. */
  points: HistoryChartPoint[];
  /** The whole range at once (its percentiles from every bucket's sketch merged). */
  totals: HistoryFigures;
}

/** A span of a task's week and what the history counted in it. */
export interface HistoryWindow extends HistoryFigures {
  /** Its start, ms. */
  from: number;
  /** Its end, ms. */
  to: number;
}

/** `GET /history/week`: a task's last 7 days, and the 7 before them when the history holds them. */
export interface TaskWeek {
  /** When the history was read, ms. */
  asOf: number;
  /** The task. */
  task: string;
  /** The last 7 days, to the end of the current hour. */
  current: HistoryWindow;
  /** The 7 days before, or null when the history recorded nothing of any task then. */
  previous: HistoryWindow | null;
}
