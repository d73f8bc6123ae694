/**
 * A task's finished jobs per minute, as the Redis source counts them
 * (`redis/failed_minutes.ts`): completed from the counters, failed as the
 * more of the counter and the failed set's members finished in that minute
 * (taskora's stall check fails jobs without counting them).
 *
 * @module
 */

import type { TaskQueue } from "./store.ts";

const MINUTE = 60_000;

/** Completed and failed per minute (ms) from `since` on. */
export function minuteCounts(
  queue: TaskQueue,
  since: number,
): Map<number, { completed: number; failed: number }> {
  const counts = new Map<number, { completed: number; failed: number }>();
  for (const [minute, { completed, failed }] of queue.metrics) {
    if (minute >= since) counts.set(minute, { completed, failed });
  }
  const inSet = new Map<number, number>();
  for (const { score } of queue.finished.failed.descending()) {
    if (score < since) break;
    const minute = Math.floor(score / MINUTE) * MINUTE;
    inSet.set(minute, (inSet.get(minute) ?? 0) + 1);
  }
  for (const [minute, failed] of inSet) {
    const counted = counts.get(minute) ?? { completed: 0, failed: 0 };
    counts.set(minute, { completed: counted.completed, failed: Math.max(counted.failed, failed) });
  }
  return counts;
}
