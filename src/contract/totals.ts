/**
 * The counts of every task added up, as `GET /overview` and the
 * `stats:update` event carry them.
 *
 * @module
 */

import type { QueueStats } from "./states.ts";

/** Totals across tasks; `delayed` counts retrying jobs too, as taskora's own stats do. */
export type Totals = Omit<QueueStats, "retrying">;

/**
 * Adds up the stats of every task; retrying jobs count as delayed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { totalsOf } from "./totals.ts";
 * const none = { waiting: 0, active: 0, delayed: 0, retrying: 0, failed: 0, completed: 0, cancelled: 0, expired: 0 };
 * assert.deepEqual(
 *   totalsOf([{ ...none, waiting: 2, retrying: 1 }, { ...none, waiting: 3, delayed: 4 }]),
 *   { waiting: 5, active: 0, delayed: 5, failed: 0, completed: 0, cancelled: 0, expired: 0 },
 * );
 * ```
 */
export function totalsOf(stats: Iterable<QueueStats>): Totals {
  const totals: Totals = {
    waiting: 0,
    active: 0,
    delayed: 0,
    failed: 0,
    completed: 0,
    cancelled: 0,
    expired: 0,
  };
  for (const s of stats) {
    totals.waiting += s.waiting;
    totals.active += s.active;
    totals.delayed += s.delayed + s.retrying;
    totals.failed += s.failed;
    totals.completed += s.completed;
    totals.cancelled += s.cancelled;
    totals.expired += s.expired;
  }
  return totals;
}
