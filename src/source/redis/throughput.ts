/**
 * Finished-job counts per time bucket, from taskora's per-minute counters
 * (`<root>:{T}:metrics:<completed|failed>:<minute ms>`, 24 h TTL).
 *
 * @module
 */

import { invalidParam } from "../../errors.ts";
import type { ThroughputBucket } from "../types.ts";
import { metricKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

const MINUTE = 60_000;
/** Counters expire after 24 h: older minutes are not asked for. */
const RETAINED_MINUTES = 1440;

/** Minutes younger than this may still be counted into (worker clocks drift): always reread. */
const SETTLE_MINUTES = 2;
const KINDS = ["completed", "failed"] as const;

/** Completed and failed counts of one minute. */
export type MinuteCounts = [completed: number, failed: number];

/**
 * One task's closed minutes: a ring of the {@link RETAINED_MINUTES} minutes
 * counters live, each slot tagged with the minute it holds. A minute 24 h
 * later takes the same slot, so the ring never grows and forgets by
 * itself; a lookup is an index, not a hash of a 13-digit number.
 */
export class TaskMinutes {
  readonly #minute = new Float64Array(RETAINED_MINUTES).fill(NaN);
  readonly #completed = new Float64Array(RETAINED_MINUTES);
  readonly #failed = new Float64Array(RETAINED_MINUTES);

  #slot(minute: number): number {
    return (minute / MINUTE) % RETAINED_MINUTES;
  }

  /** Adds a known minute's counts to `bucket`; false, adding nothing, when the minute is not known. */
  addTo(minute: number, bucket: ThroughputBucket): boolean {
    const slot = this.#slot(minute);
    if (this.#minute[slot] !== minute) return false;
    bucket.completed += this.#completed[slot];
    bucket.failed += this.#failed[slot];
    return true;
  }

  /** Keeps a closed minute's counts, in the place of the minute 24 h before it. */
  set(minute: number, [completed, failed]: MinuteCounts): void {
    const slot = this.#slot(minute);
    this.#minute[slot] = minute;
    this.#completed[slot] = completed;
    this.#failed[slot] = failed;
  }
}

/**
 * Counts of minutes that are over, per task: taskora only increments the
 * current minute's counter, so a closed minute is read once and kept until
 * it falls out of the 24 h window. Turns the 24 h query from 2,880 keys per
 * task into the last few minutes. Bounded: one ring of 1,440 minutes per
 * task the board was asked about.
 */
export class ClosedMinutes {
  readonly #byTask = new Map<string, TaskMinutes>();

  /** The task's minutes, an empty ring at first. */
  of(task: string): TaskMinutes {
    let minutes = this.#byTask.get(task);
    if (!minutes) this.#byTask.set(task, minutes = new TaskMinutes());
    return minutes;
  }
}

/** Options of {@link getThroughput}. */
export interface ThroughputOptions {
  /** Closed minutes already read; filled as minutes close. */
  cache?: ClosedMinutes;
  bucketMs?: number;
  count?: number;
  prefix?: string;
  /** The current time, ms (tests). */
  now?: number;
}

/** Empty buckets `firstBucket`, `firstBucket + bucketMs`, … (`count` of them). */
function emptyBuckets(firstBucket: number, bucketMs: number, count: number): ThroughputBucket[] {
  // A plain loop: Array.from with a length and a mapper was most of this read's time.
  const buckets: ThroughputBucket[] = [];
  for (let i = 0; i < count; i++) {
    buckets.push({ timestamp: firstBucket + i * bucketMs, completed: 0, failed: 0 });
  }
  return buckets;
}

/**
 * `count` buckets of `bucketMs` (a multiple of one minute), oldest first,
 * the last one holding the current minute; each bucket sums the minutes
 * inside it over all given tasks. One round trip; see {@link getThroughputByTask}.
 */
export async function getThroughput(
  connection: RedisConnection,
  tasks: readonly string[],
  options: ThroughputOptions = {},
): Promise<ThroughputBucket[]> {
  const { firstBucket, bucketMs, count } = windowOf(options);
  const sum = emptyBuckets(firstBucket, bucketMs, count);
  for (const buckets of (await getThroughputByTask(connection, tasks, options)).values()) {
    buckets.forEach((bucket, i) => {
      sum[i].completed += bucket.completed;
      sum[i].failed += bucket.failed;
    });
  }
  return sum;
}

/** The buckets asked for, checked: their width, number, and the first one's start. */
function windowOf(options: ThroughputOptions): {
  bucketMs: number;
  count: number;
  firstBucket: number;
  now: number;
} {
  const bucketMs = options.bucketMs ?? MINUTE;
  const count = options.count ?? 1440;
  if (!Number.isInteger(bucketMs) || bucketMs <= 0 || bucketMs % MINUTE !== 0) {
    throw invalidParam("bucketMs", "must be a positive multiple of 60000");
  }
  if (!Number.isInteger(count) || count <= 0) {
    throw invalidParam("count", "must be a positive integer");
  }
  const now = options.now ?? Date.now();
  const firstBucket = Math.floor(now / bucketMs) * bucketMs - (count - 1) * bucketMs;
  return { bucketMs, count, firstBucket, now };
}

/**
 * Each task's own buckets, as {@link getThroughput} counts them. One round
 * trip: per task, one MGET of both kinds over the minutes of the window
 * not yet in `cache` (same slot), all in one pipeline.
 */
export async function getThroughputByTask(
  connection: RedisConnection,
  tasks: readonly string[],
  options: ThroughputOptions = {},
): Promise<Map<string, ThroughputBucket[]>> {
  const { bucketMs, count, firstBucket, now } = windowOf(options);
  const byTask = new Map<string, ThroughputBucket[]>();
  for (const task of tasks) byTask.set(task, emptyBuckets(firstBucket, bucketMs, count));

  const currentMinute = Math.floor(now / MINUTE) * MINUTE;
  const oldestMinute = Math.max(firstBucket, currentMinute - (RETAINED_MINUTES - 1) * MINUTE);
  const minutes: number[] = [];
  for (let m = currentMinute; m >= oldestMinute; m -= MINUTE) minutes.push(m);
  if (minutes.length === 0) return byTask;

  const settled = currentMinute - SETTLE_MINUTES * MINUTE;
  const bucketOf = (buckets: ThroughputBucket[], minute: number) =>
    buckets[Math.floor((minute - firstBucket) / bucketMs)];
  // Known minutes are counted now, before the read: a concurrent call that closes one meanwhile
  // cannot make it count twice.
  const asks = [...byTask].map(([task, buckets]) => {
    const known = options.cache?.of(task);
    const unknown: number[] = [];
    for (let i = 0; i < minutes.length; i++) {
      const minute = minutes[i];
      const counted = minute < settled && known !== undefined &&
        known.addTo(minute, bucketOf(buckets, minute));
      if (!counted) unknown.push(minute);
    }
    return { task, buckets, known, minutes: unknown };
  }).filter((ask) => ask.minutes.length > 0);
  // One MGET per task for both kinds (the keys share the task's slot).
  const replies = asks.length === 0 ? [] : await connection.pipeline(
    asks.map(({ task, minutes }) => [
      "MGET",
      ...KINDS.flatMap((kind) => minutes.map((m) => metricKey(task, kind, m, options.prefix))),
    ]),
  ) as (string | null)[][];
  asks.forEach(({ buckets, known, minutes }, i) => {
    minutes.forEach((minute, j) => {
      const counts: MinuteCounts = [
        Number(replies[i][j]) || 0,
        Number(replies[i][minutes.length + j]) || 0,
      ];
      if (minute < settled) known?.set(minute, counts);
      const bucket = bucketOf(buckets, minute);
      bucket.completed += counts[0];
      bucket.failed += counts[1];
    });
  });
  return byTask;
}
