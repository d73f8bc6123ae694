/**
 * `GET /throughput` from the day the leader keeps (`throughput.ts`): one
 * read of the store for the total or one task's series, bucketed as asked,
 * while that day is at most {@link KEPT_FRESH_MS} old; null when it is
 * older, missing, or lacks the task, and the route reads the counters
 * directly. Each board notes in the store, at most once a minute, that it
 * was asked, which is what keeps the leader keeping it.
 *
 * @module
 */

import type { ThroughputBucket } from "../contract/throughput.ts";
import { decodeMinutes, type ThroughputStore } from "../store/throughput.ts";
import { THROUGHPUT_PASS_MS } from "./throughput.ts";

/** The oldest kept day answered: two passes missed, and a little. */
export const KEPT_FRESH_MS = 2 * THROUGHPUT_PASS_MS + 30_000;
/** How long a board's asking keeps the leader keeping: ten minutes. */
export const THROUGHPUT_DEMAND_MS = 10 * 60_000;

/** Buckets and the time the counters they sum were read. */
export interface KeptAnswer {
  buckets: ThroughputBucket[];
  /** When the leader read the counters, ms. */
  asOf: number;
}

/** A query of `GET /throughput`, checked by the route. */
export interface KeptQuery {
  task?: string;
  bucketMs: number;
  count: number;
}

/** Reads the kept day for one board. */
export class KeptThroughputReader {
  readonly #store: ThroughputStore;
  readonly #clock: () => number;
  #notedAt = -Infinity;

  /** A reader of `store` on the board's clock (ms since the epoch). */
  constructor(store: ThroughputStore, clock: () => number) {
    this.#store = store;
    this.#clock = clock;
  }

  /**
   * The `count` buckets of `bucketMs` ending with the newest minute kept
   * (the leader's, counting still when read), or null when not kept fresh.
   */
  async read({ task, bucketMs, count }: KeptQuery): Promise<KeptAnswer | null> {
    const now = this.#clock();
    if (now - this.#notedAt >= THROUGHPUT_PASS_MS) {
      this.#notedAt = now;
      await this.#store.noteDemand(THROUGHPUT_DEMAND_MS);
    }
    const kept = await this.#store.read(task);
    if (kept === null || kept.series === null || now - kept.asOf > KEPT_FRESH_MS) return null;
    const first = Math.floor(kept.minute / bucketMs) * bucketMs - (count - 1) * bucketMs;
    const buckets: ThroughputBucket[] = [];
    for (let i = 0; i < count; i++) {
      buckets.push({ timestamp: first + i * bucketMs, completed: 0, failed: 0 });
    }
    for (const { minute, completed, failed } of decodeMinutes(kept.series)) {
      if (minute < first || minute > kept.minute) continue;
      const bucket = buckets[Math.floor((minute - first) / bucketMs)];
      bucket.completed += completed;
      bucket.failed += failed;
    }
    return { buckets, asOf: kept.asOf };
  }
}
