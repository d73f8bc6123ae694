/**
 * How far a task's queue is behind: the age of its oldest waiting job and
 * how overdue its first delayed job is (from the queue heads), and its
 * finished jobs per minute over the last hour (the rate sparkline).
 *
 * @module
 */

import type { QueueHeads } from "./health.ts";
import type { ThroughputBucket } from "./throughput.ts";

/**
 * How many tasks' latency samples a board keeps at most (the least recently
 * asked goes first), and so how many tasks a metrics scrape shows apart.
 */
export const LATENCY_CACHE_TASKS = 500;

/** A task's queue latency at one moment. */
export interface QueueLatency {
  /** The job waiting longest, since when it waits (ms) and for how long (ms); null when none waits. */
  oldestWaiting: { id: string; since: number; ageMs: number } | null;
  /**
   * The delayed or retrying job whose run-at passed longest ago, its run-at
   * (ms) and by how much it is overdue (ms); null when none is due yet.
   */
  mostOverdue: { id: string; at: number; overdueMs: number } | null;
}

/** The latency the heads say at `now` (ms). */
export function queueLatency(heads: QueueHeads, now: number): QueueLatency {
  const { oldestWaiting, nextDue } = heads;
  return {
    oldestWaiting: oldestWaiting
      ? { ...oldestWaiting, ageMs: Math.max(0, now - oldestWaiting.since) }
      : null,
    mostOverdue: nextDue && nextDue.at <= now ? { ...nextDue, overdueMs: now - nextDue.at } : null,
  };
}

/** Minutes of the rate sparkline. */
export const RATE_MINUTES = 60;

/** Finished jobs per minute, oldest first, the last minute being the current one. */
export interface TaskRate {
  /** Start of the first minute (ms). */
  from: number;
  /** Width of each entry (ms): one minute. */
  bucketMs: number;
  /** Jobs completed in each minute. */
  completed: number[];
  /** Jobs that failed for good in each minute. */
  failed: number[];
}

/** The rate of one-minute throughput buckets (oldest first). */
export function taskRate(buckets: readonly ThroughputBucket[]): TaskRate {
  return {
    from: buckets[0]?.timestamp ?? 0,
    bucketMs: 60_000,
    completed: buckets.map((bucket) => bucket.completed),
    failed: buckets.map((bucket) => bucket.failed),
  };
}

/** Three percentiles of a set of durations, ms. */
export interface Percentiles {
  /** The median. */
  p50: number;
  /** 95 % of the durations are at most this. */
  p95: number;
  /** 99 % of the durations are at most this. */
  p99: number;
}

/**
 * Upper bounds (ms) of the histogram's bins, each bin holding the
 * durations above the previous bound up to its own; a last bin holds
 * the rest. Log-spaced: queue times span milliseconds to hours.
 */
export const HISTOGRAM_BOUNDS_MS: readonly number[] = [
  10,
  50,
  100,
  250,
  500,
  1_000,
  2_500,
  5_000,
  10_000,
  30_000,
  60_000,
  300_000,
  900_000,
  3_600_000,
];

/** How durations spread, for one of wait or run. */
export interface DurationSummary {
  /** How many jobs gave a duration (a job that never ran gives none). */
  count: number;
  /** The percentiles, null when `count` is 0. */
  percentiles: Percentiles | null;
  /** Counts per bin of {@link HISTOGRAM_BOUNDS_MS}, plus one bin for longer ones. */
  histogram: number[];
}

/** Wait and run percentiles over a task's newest finished jobs. */
export interface LatencySample {
  /** How many finished jobs the sample looks at, at most (the newest of both sets together). */
  sampleSize: number;
  /** How many it found. */
  jobs: number;
  /** When the oldest and newest of them finished (ms); null when none. */
  from: number | null;
  /** See `from`. */
  to: number | null;
  /** When the sample was read (ms): answers reuse it for `maxAgeMs`. */
  readAt: number;
  /** How long a read sample is reused, ms. */
  maxAgeMs: number;
  /**
   * Time from becoming runnable (`ts + delay`) to the last attempt's start
   * (`processedOn`): for a retried job it includes its earlier attempts.
   */
  wait: DurationSummary;
  /** Time of the last attempt: `finishedOn - processedOn`. */
  run: DurationSummary;
}

/** The answer of `GET /tasks/{task}/latency`. */
export interface TaskLatencyResponse {
  /** The task. */
  task: string;
  /** Its queue now. */
  queue: QueueLatency;
  /** Its newest finished jobs' wait and run times. */
  sample: LatencySample;
}

/**
 * The value at `fraction` of sorted durations, by the nearest-rank method:
 * the smallest value with at least that share of values at or below it.
 */
function rank(sorted: readonly number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)];
}

/** The percentiles and histogram of durations (ms; negative ones, from clock skew, count as 0). */
export function summarize(durations: readonly number[]): DurationSummary {
  const sorted = durations.map((ms) => Math.max(0, ms)).sort((a, b) => a - b);
  const histogram = new Array<number>(HISTOGRAM_BOUNDS_MS.length + 1).fill(0);
  for (const ms of sorted) {
    const bin = HISTOGRAM_BOUNDS_MS.findIndex((bound) => ms <= bound);
    histogram[bin === -1 ? HISTOGRAM_BOUNDS_MS.length : bin]++;
  }
  return {
    count: sorted.length,
    percentiles: sorted.length === 0
      ? null
      : { p50: rank(sorted, 0.5), p95: rank(sorted, 0.95), p99: rank(sorted, 0.99) },
    histogram,
  };
}

/** The times of one finished (completed or failed) job, as a source reads them. */
export interface FinishedTiming {
  /** The job id. */
  id: string;
  /** Dispatch time (`ts`), ms. */
  createdAt: number;
  /** The dispatch delay (`delay`), ms, 0 when none. */
  delay: number;
  /** Start of its last attempt, or null when it never ran. */
  processedAt: number | null;
  /** When it finished, ms. */
  finishedAt: number;
}

/** What one finished job adds to a sample: when it finished, its wait and run (null when it never ran). */
export interface FinishedDurations {
  /** When it finished, ms. */
  finishedAt: number;
  /** Run-at (`ts + delay`) to the last attempt's start, ms. */
  wait: number | null;
  /** The last attempt's run time, ms. */
  run: number | null;
}

/** The durations of a finished job's times. */
export function durationsOf(timing: FinishedTiming): FinishedDurations {
  const { createdAt, delay, processedAt, finishedAt } = timing;
  return {
    finishedAt,
    wait: processedAt === null ? null : processedAt - createdAt - delay,
    run: processedAt === null ? null : finishedAt - processedAt,
  };
}

/** The sample's summaries of finished jobs' durations, as read at `readAt`. */
export function latencySample(
  jobs: readonly FinishedDurations[],
  sampleSize: number,
  readAt: number,
  maxAgeMs: number,
): LatencySample {
  let from: number | null = null;
  let to: number | null = null;
  for (const { finishedAt } of jobs) {
    if (from === null || finishedAt < from) from = finishedAt;
    if (to === null || finishedAt > to) to = finishedAt;
  }
  return {
    sampleSize,
    jobs: jobs.length,
    from,
    to,
    readAt,
    maxAgeMs,
    wait: summarize(jobs.flatMap((job) => job.wait === null ? [] : [job.wait])),
    run: summarize(jobs.flatMap((job) => job.run === null ? [] : [job.run])),
  };
}
