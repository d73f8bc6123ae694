/**
 * Live states for the readers' tests, as the leader would write them (see
 * `src/store/feed.ts`): a row with only what the test sets, and the index
 * and summary of some rows.
 *
 * @module
 */

import type { QueueStats } from "../../src/contract/states.ts";
import { totalsOf } from "../../src/contract/totals.ts";
import type { LiveIndex, LiveRow, LiveStateWrite } from "../../src/store/feed.ts";
import { NO_JOBS } from "./fixture.ts";

/** A row of `name`: these counts (the others 0), read at `readAt`, nothing else known. */
export function liveRow(
  name: string,
  stats: Partial<QueueStats>,
  extra: Partial<LiveRow> = {},
): LiveRow {
  return {
    name,
    stats: { ...NO_JOBS, ...stats },
    retryingAsOf: null,
    heads: { oldestWaiting: null, oldestActive: null, nextDue: null },
    health: { status: "healthy", reason: "", failureRate: null, noProgress: false },
    rate: { from: 0, bucketMs: 60_000, completed: [], failed: [] },
    lastTakenAt: null,
    reruns: 0,
    rerunLog: [],
    readAt: 0,
    coveredSince: 0,
    ...extra,
  };
}

/** The index of `rows`: their counts, verdicts and oldest waiting jobs, and the sums. */
export function liveIndexOf(rows: readonly LiveRow[]): LiveIndex {
  const healthCounts = { critical: 0, warning: 0, healthy: 0, idle: 0 };
  for (const row of rows) healthCounts[row.health.status]++;
  return {
    tasks: rows.map(({ name, stats, retryingAsOf, health, heads }) => ({
      name,
      stats,
      retryingAsOf,
      health: { status: health.status },
      latency: { oldestWaiting: heads.oldestWaiting && { since: heads.oldestWaiting.since } },
    })),
    totals: totalsOf(rows.map((row) => row.stats)),
    healthCounts,
  };
}

/** One whole pass of a leader that found `rows` at `asOf`. */
export function livePass(asOf: number, rows: readonly LiveRow[]): LiveStateWrite {
  return { asOf, index: liveIndexOf(rows), rows };
}
