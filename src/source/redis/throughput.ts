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
 * Counts of minutes that are over: taskora only increments the current
 * minute's counter, so a closed minute is read once and kept until it falls
 * out of the 24 h window. Turns the 24 h query from 2,880 keys per task into
 * the last few minutes.
 */
export class ClosedMinutes {
  #byTask = new Map<string, Map<number, MinuteCounts>>();
  #prunedBefore = -Infinity;

  /** Whether the minute of the task is known. */
  has(task: string, minute: number): boolean {
    return this.#byTask.get(task)?.has(minute) ?? false;
  }

  /** The counts of a known minute. */
  get(task: string, minute: number): MinuteCounts | undefined {
    return this.#byTask.get(task)?.get(minute);
  }

  /** Keeps a closed minute's counts. */
  set(task: string, minute: number, counts: MinuteCounts): void {
    let minutes = this.#byTask.get(task);
    if (!minutes) this.#byTask.set(task, minutes = new Map());
    minutes.set(minute, counts);
  }

  /**
   * Forgets minutes before `oldest`. Walks the cache only when `oldest` has
   * moved on, i.e. once a minute, not on every request.
   */
  prune(oldest: number): void {
    if (oldest <= this.#prunedBefore) return;
    this.#prunedBefore = oldest;
    for (const minutes of this.#byTask.values()) {
      for (const minute of minutes.keys()) {
        if (minute < oldest) minutes.delete(minute);
      }
    }
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
  return Array.from({ length: count }, (_, i) => ({
    timestamp: firstBucket + i * bucketMs,
    completed: 0,
    failed: 0,
  }));
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
  const cache = options.cache;
  cache?.prune(currentMinute - (RETAINED_MINUTES - 1) * MINUTE);
  const asks = [...byTask.keys()].map((task) => ({
    task,
    minutes: cache ? minutes.filter((m) => m >= settled || !cache.has(task, m)) : minutes,
  })).filter((ask) => ask.minutes.length > 0);
  // One MGET per task for both kinds (the keys share the task's slot).
  const replies = asks.length === 0 ? [] : await connection.pipeline(
    asks.map(({ task, minutes }) => [
      "MGET",
      ...KINDS.flatMap((kind) => minutes.map((m) => metricKey(task, kind, m, options.prefix))),
    ]),
  ) as (string | null)[][];
  const read = new Map<string, Map<number, MinuteCounts>>();
  asks.forEach(({ task, minutes }, i) => {
    const completed = replies[i].slice(0, minutes.length);
    const failed = replies[i].slice(minutes.length);
    const counts = new Map<number, MinuteCounts>();
    minutes.forEach((minute, j) => {
      const pair: MinuteCounts = [Number(completed[j]) || 0, Number(failed[j]) || 0];
      counts.set(minute, pair);
      if (minute < settled) cache?.set(task, minute, pair);
    });
    read.set(task, counts);
  });
  for (const [task, buckets] of byTask) {
    for (const minute of minutes) {
      const counts = read.get(task)?.get(minute) ?? cache?.get(task, minute);
      if (!counts) continue;
      const index = Math.floor((minute - firstBucket) / bucketMs);
      if (index < 0 || index >= count) continue;
      buckets[index].completed += counts[0];
      buckets[index].failed += counts[1];
    }
  }
  return byTask;
}
