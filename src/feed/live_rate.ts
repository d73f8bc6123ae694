/**
 * A live row's rate (its finished jobs per minute over the hour before it
 * was read) as the readers of minutes use it. A row is read again whenever
 * its task has a job event, and a job that finishes writes one, so a minute
 * after the row's last one finished nothing: it counts 0, not unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { minutesAt, rateBucketAt, rateBuckets, rateCovers } from "./live_rate.ts";
 *
 * const rate = { from: 60_000, bucketMs: 60_000, completed: [4, 5], failed: [1, 0] };
 * assert.deepEqual(rateBuckets(rate)[1], { timestamp: 120_000, completed: 5, failed: 0 });
 * assert.deepEqual(rateBucketAt(rate, 600_000), { timestamp: 600_000, completed: 0, failed: 0 });
 * assert.equal(rateCovers(rate, 60_000), true);
 * assert.equal(rateCovers(rate, 0), false, "the minute before its first is not in it");
 * assert.deepEqual(
 *   minutesAt(rateBuckets(rate), 180_000).map((bucket) => bucket.completed),
 *   [5, 0],
 *   "a minute later: the newest minute is 0, the oldest left the window",
 * );
 * ```
 *
 * @module
 */

import { type TaskRate, taskRate } from "../contract/latency.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";

/** The rate as one-minute buckets, oldest first. */
export function rateBuckets(rate: TaskRate): ThroughputBucket[] {
  return rate.completed.map((completed, i) => ({
    timestamp: rate.from + i * rate.bucketMs,
    completed,
    failed: rate.failed[i] ?? 0,
  }));
}

/** The bucket of the minute starting at `minute` (ms): 0 finished outside the rate's. */
export function rateBucketAt(rate: TaskRate, minute: number): ThroughputBucket {
  const i = (minute - rate.from) / rate.bucketMs;
  const inside = Number.isInteger(i) && i >= 0 && i < rate.completed.length;
  return {
    timestamp: minute,
    completed: inside ? rate.completed[i] : 0,
    failed: inside ? rate.failed[i] ?? 0 : 0,
  };
}

/**
 * Whether the rate tells every minute from the one starting at `minute`
 * (ms) on: it starts at or before it (the minutes after its last are 0).
 */
export function rateCovers(rate: TaskRate, minute: number): boolean {
  return rate.completed.length > 0 && rate.from <= minute;
}

/**
 * `buckets` (one minute each, oldest first, as read at some earlier time)
 * moved on to `now` (ms): as many minutes, the newest the one `now` falls
 * in, those after the read counting 0 (see the module documentation). The
 * live state keeps a row's hour this way between reads of its task.
 */
export function minutesAt(buckets: readonly ThroughputBucket[], now: number): ThroughputBucket[] {
  const last = buckets.at(-1);
  const minute = Math.floor(now / 60_000) * 60_000;
  if (!last || last.timestamp >= minute) return [...buckets];
  const rate = taskRate(buckets);
  return buckets.map((_, i) => rateBucketAt(rate, minute - (buckets.length - 1 - i) * 60_000));
}
