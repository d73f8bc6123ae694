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

/** Options of {@link getThroughput}. */
export interface ThroughputOptions {
  bucketMs?: number;
  count?: number;
  prefix?: string;
  /** The current time, ms (tests). */
  now?: number;
}

/**
 * `count` buckets of `bucketMs` (a multiple of one minute), oldest first,
 * the last one holding the current minute; each bucket sums the minutes
 * inside it over all given tasks. One round trip: per task, one MGET per
 * kind over the retained minutes of the window (same slot), all in one
 * pipeline.
 */
export async function getThroughput(
  connection: RedisConnection,
  tasks: readonly string[],
  options: ThroughputOptions = {},
): Promise<ThroughputBucket[]> {
  const bucketMs = options.bucketMs ?? MINUTE;
  const count = options.count ?? 1440;
  if (!Number.isInteger(bucketMs) || bucketMs <= 0 || bucketMs % MINUTE !== 0) {
    throw invalidParam("bucketMs", "must be a positive multiple of 60000");
  }
  if (!Number.isInteger(count) || count <= 0) {
    throw invalidParam("count", "must be a positive integer");
  }
  const now = options.now ?? Date.now();
  const lastBucket = Math.floor(now / bucketMs) * bucketMs;
  const firstBucket = lastBucket - (count - 1) * bucketMs;
  const buckets: ThroughputBucket[] = Array.from({ length: count }, (_, i) => ({
    timestamp: firstBucket + i * bucketMs,
    completed: 0,
    failed: 0,
  }));

  const currentMinute = Math.floor(now / MINUTE) * MINUTE;
  const oldestMinute = Math.max(firstBucket, currentMinute - (RETAINED_MINUTES - 1) * MINUTE);
  const minutes: number[] = [];
  for (let m = currentMinute; m >= oldestMinute; m -= MINUTE) minutes.push(m);
  if (minutes.length === 0 || tasks.length === 0) return buckets;

  const kinds = ["completed", "failed"] as const;
  const replies = await connection.pipeline(
    tasks.flatMap((task) =>
      kinds.map((kind) => [
        "MGET",
        ...minutes.map((m) => metricKey(task, kind, m, options.prefix)),
      ])
    ),
  );
  replies.forEach((values, i) => {
    const kind = kinds[i % kinds.length];
    (values as (string | null)[]).forEach((value, j) => {
      if (value === null) return;
      const index = Math.floor((minutes[j] - firstBucket) / bucketMs);
      if (index >= 0 && index < count) buckets[index][kind] += Number(value) || 0;
    });
  });
  return buckets;
}
