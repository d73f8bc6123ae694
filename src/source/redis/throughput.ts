/**
 * Finished-job counts per time bucket, from taskora's per-minute counters
 * (`<root>:{T}:metrics:<completed|failed>:<minute ms>`, 24 h TTL) and, for
 * failures, the failed set's members of each minute when they are more
 * (see `failed_minutes.ts`).
 *
 * @module
 */

import type { ThroughputBucket } from "../types.ts";
import { metricPrefix, taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { THROUGHPUT_MINUTES } from "./failed_minutes.ts";

const MINUTE = 60_000;
/** Counters expire after 24 h: older minutes are not asked for. */
const RETAINED_MINUTES = 1440;

/** Minutes younger than this may still be counted into (worker clocks drift): always reread. */
const SETTLE_MINUTES = 2;
/**
 * The most counters one round trip reads: at 10,000 tasks a first read of
 * an hour is 1.2 million keys, and their replies held at once were most of
 * the board's memory.
 */
export const THROUGHPUT_KEYS_PER_TRIP = 50_000;
const KINDS = ["completed", "failed"] as const;

/** Completed and failed counts of one minute. */
export type MinuteCounts = [completed: number, failed: number];

/**
 * One task's closed minutes: a ring of slots, each tagged with the minute it
 * holds, as many as the longest window asked of the task (at most the
 * {@link RETAINED_MINUTES} counters live). A minute one ring length later
 * takes the same slot, so the ring never grows by itself and forgets on its
 * own; a lookup is an index, not a hash of a 13-digit number.
 */
export class TaskMinutes {
  #minute: Float64Array;
  #completed: Float64Array;
  #failed: Float64Array;

  constructor(capacity: number) {
    this.#minute = new Float64Array(capacity).fill(NaN);
    this.#completed = new Float64Array(capacity);
    this.#failed = new Float64Array(capacity);
  }

  /** How many minutes the ring holds. */
  get capacity(): number {
    return this.#minute.length;
  }

  #slot(minute: number): number {
    return (minute / MINUTE) % this.capacity;
  }

  /** Grows the ring to `capacity` minutes (a longer window), keeping the minutes held. */
  grow(capacity: number): void {
    const [held, completed, failed] = [this.#minute, this.#completed, this.#failed];
    this.#minute = new Float64Array(capacity).fill(NaN);
    this.#completed = new Float64Array(capacity);
    this.#failed = new Float64Array(capacity);
    held.forEach((minute, i) => {
      if (!Number.isNaN(minute)) this.set(minute, [completed[i], failed[i]]);
    });
  }

  /** Adds a known minute's counts to `bucket`; false, adding nothing, when the minute is not known. */
  addTo(minute: number, bucket: ThroughputBucket): boolean {
    const slot = this.#slot(minute);
    if (this.#minute[slot] !== minute) return false;
    bucket.completed += this.#completed[slot];
    bucket.failed += this.#failed[slot];
    return true;
  }

  /** Keeps a closed minute's counts, in the place of the minute one ring length before it. */
  set(minute: number, [completed, failed]: MinuteCounts): void {
    const slot = this.#slot(minute);
    this.#minute[slot] = minute;
    this.#completed[slot] = completed;
    this.#failed[slot] = failed;
  }
}

/** Slots {@link ClosedMinutes} holds by default over all tasks: a day for 500 tasks, about 17 MB. */
export const CLOSED_MINUTES_MAX_SLOTS = 500 * RETAINED_MINUTES;

/**
 * Counts of minutes that are over, per task: taskora only increments the
 * current minute's counter, so a closed minute is read once and kept until
 * it falls out of the window. Turns the 24 h query from 2,880 keys per task
 * into the last few minutes. Bounded: each task's ring is as long as the
 * longest window asked of it, and all rings together hold at most
 * `maxSlots` minutes (24 bytes each). Past that a ring grows no more and a
 * new task gets none: what does not fit is read from Redis each time, while
 * the rings held keep serving (dropping the least recently asked instead
 * would make a read over more tasks than fit miss on every task).
 */
export class ClosedMinutes {
  readonly #byTask = new Map<string, TaskMinutes>();
  readonly #maxSlots: number;
  #slots = 0;

  constructor(options: { maxSlots?: number } = {}) {
    this.#maxSlots = options.maxSlots ?? CLOSED_MINUTES_MAX_SLOTS;
  }

  /** Minutes held over all tasks. */
  get slots(): number {
    return this.#slots;
  }

  /**
   * The task's minutes, with room for a window of `minutes` as far as the
   * budget allows; undefined when there is no room for a new task.
   */
  of(task: string, minutes: number): TaskMinutes | undefined {
    const wanted = Math.min(RETAINED_MINUTES, minutes);
    const ring = this.#byTask.get(task);
    const room = this.#maxSlots - this.#slots + (ring?.capacity ?? 0);
    const capacity = Math.min(wanted, room);
    if (!ring) {
      if (capacity < 1) return undefined;
      this.#slots += capacity;
      this.#byTask.set(task, new TaskMinutes(capacity));
    } else if (capacity > ring.capacity) {
      this.#slots += capacity - ring.capacity;
      ring.grow(capacity);
    }
    return this.#byTask.get(task);
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
  /**
   * Per task, its one-minute buckets as the caller last read them, whose
   * failures no event since can have changed: its failed set is not read
   * again, each minute's failed figure is the more of its counter and the
   * kept bucket's.
   */
  keptFailures?: ReadonlyMap<string, readonly ThroughputBucket[]>;
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

/** The buckets asked for (checked before the source is asked): their width, number, and the first one's start. */
function windowOf(options: ThroughputOptions): {
  bucketMs: number;
  count: number;
  firstBucket: number;
  now: number;
} {
  const bucketMs = options.bucketMs ?? MINUTE;
  const count = options.count ?? 1440;
  const now = options.now ?? Date.now();
  const firstBucket = Math.floor(now / bucketMs) * bucketMs - (count - 1) * bucketMs;
  return { bucketMs, count, firstBucket, now };
}

/**
 * Each task's own buckets, as {@link getThroughput} counts them. Per task,
 * one {@link THROUGHPUT_MINUTES} script (an MGET of both kinds over the
 * minutes of the window not yet in `cache`, and the failed set's members of
 * those minutes; same slot), pipelined: one round trip per
 * {@link THROUGHPUT_KEYS_PER_TRIP} keys (one for the last minutes of 20
 * tasks, 24 for the first hour of 10,000).
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
    const known = options.cache?.of(task, minutes.length);
    const unknown: number[] = [];
    for (let i = 0; i < minutes.length; i++) {
      const minute = minutes[i];
      const counted = minute < settled && known !== undefined &&
        known.addTo(minute, bucketOf(buckets, minute));
      if (!counted) unknown.push(minute);
    }
    return { task, buckets, known, minutes: unknown };
  }).filter((ask) => ask.minutes.length > 0);
  for (const batch of tripsOf(asks)) {
    // One script per task for both kinds and the failed set (the keys share the task's slot).
    const replies = await connection.pipeline(
      batch.map(({ task, minutes }) => ({
        script: THROUGHPUT_MINUTES,
        keys: [taskKeys(task, options.prefix).failed],
        args: [
          options.keptFailures?.has(task) ? "1" : "0",
          metricPrefix(task, options.prefix),
          ...runsOf(minutes),
        ],
      })),
    ) as (string | number | null)[][];
    batch.forEach(({ task, buckets, known, minutes }, i) => {
      const kept = keptFailedOf(options.keptFailures?.get(task));
      // Only the minutes that have a counter or a failed-set member: place (from 1), completed,
      // failed, members; the others counted none.
      const read = replies[i];
      let next = 0;
      minutes.forEach((minute, j) => {
        let [completed, failed] = [0, kept?.get(minute) ?? 0];
        if (Number(read[next]) === j + 1) {
          completed = Number(read[next + 1]) || 0;
          failed = Math.max(failed, Number(read[next + 2]) || 0, Number(read[next + 3]));
          next += 4;
        }
        if (minute < settled) known?.set(minute, [completed, failed]);
        const bucket = bucketOf(buckets, minute);
        bucket.completed += completed;
        bucket.failed += failed;
      });
    });
  }
  return byTask;
}

/** The failed figure of each minute of kept one-minute buckets. */
function keptFailedOf(
  buckets: readonly ThroughputBucket[] | undefined,
): Map<number, number> | undefined {
  return buckets && new Map(buckets.map((bucket) => [bucket.timestamp, bucket.failed]));
}

/**
 * `minutes` (one minute apart or more, newest first) as the runs the
 * {@link THROUGHPUT_MINUTES} script reads: each run's newest minute and how
 * many minutes back from it, one apart. A day not read yet is one run.
 */
function runsOf(minutes: readonly number[]): number[] {
  const runs: number[] = [];
  minutes.forEach((minute, i) => {
    if (i > 0 && minutes[i - 1] - minute === MINUTE) runs[runs.length - 1]++;
    else runs.push(minute, 1);
  });
  return runs;
}

/**
 * The tasks' reads in round trips of at most {@link THROUGHPUT_KEYS_PER_TRIP}
 * keys (a task's reads never split: its script is one command).
 */
function tripsOf<Ask extends { minutes: readonly number[] }>(asks: readonly Ask[]): Ask[][] {
  const trips: Ask[][] = [];
  let keys = Infinity;
  for (const ask of asks) {
    const asked = KINDS.length * ask.minutes.length + 1; // and the failed set
    if (keys + asked > THROUGHPUT_KEYS_PER_TRIP) {
      trips.push([]);
      keys = 0;
    }
    trips.at(-1)!.push(ask);
    keys += asked;
  }
  return trips;
}
