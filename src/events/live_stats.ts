/**
 * The `stats:update` frame made from the live state the leader keeps (see
 * `../store/feed.ts`): its index holds every task's counts, retrying split
 * and the totals, so a frame costs one store read whatever the number of
 * tasks, on every board, and says the live state's `asOf` as its `at`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { liveStatsPayload } from "./live_stats.ts";
 *
 * const stats = { waiting: 1, active: 0, delayed: 0, retrying: 0, failed: 0, completed: 2, cancelled: 0, expired: 0 };
 * const { retrying: _, ...totals } = stats;
 * const payload = liveStatsPayload({
 *   asOf: 1_000,
 *   index: {
 *     tasks: [{ name: "mail", stats, retryingAsOf: 900, health: { status: "healthy" }, latency: { oldestWaiting: null } }],
 *     totals,
 *     healthCounts: { critical: 0, warning: 0, healthy: 1, idle: 0 },
 *   },
 * });
 * assert.deepEqual(payload.tasks, [{ name: "mail", stats, retryingAsOf: 900 }]);
 * assert.equal(payload.at, 1_000);
 * ```
 *
 * @module
 */

import type { StatsPayload } from "../contract/events.ts";
import type { LiveSummary } from "../store/feed.ts";

/** The stats frame of `summary`: every task's counts and the totals, as of its `asOf`. */
export function liveStatsPayload({ asOf, index }: LiveSummary): StatsPayload {
  return {
    tasks: index.tasks.map(({ name, stats, retryingAsOf }) => ({ name, stats, retryingAsOf })),
    totals: index.totals,
    connected: true,
    at: asOf,
  };
}
