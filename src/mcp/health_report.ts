/**
 * The health report tool's text: for each task that is not healthy, its
 * verdict and the figures behind it, in one line an on-call agent can quote.
 * Every figure comes from one overview (the counts, the health the board
 * already judges, the oldest waiting job, the last hour's failures): no
 * read beyond the overview's, and no model in the loop.
 *
 * @module
 */

import { roughDuration } from "../contract/health.ts";
import { countOf } from "../contract/plural.ts";
import type { OverviewResponse, OverviewTask } from "../contract/overview.ts";

/** The health window, in minutes of the overview's hour of rates. */
const RECENT_MINUTES = 15;

/** How much above the hour's failures a task's recent ones must be to be named. */
const FAILURE_SURGE = 2;

const grouped = new Intl.NumberFormat("en-US");

/** A task's failures in the last {@link RECENT_MINUTES}, as a multiple of the rest of the hour's pace. */
function failureSurge(task: OverviewTask): string | null {
  const failed = task.rate.failed;
  if (failed.length <= RECENT_MINUTES) return null;
  const recent = failed.slice(-RECENT_MINUTES).reduce((sum, n) => sum + n, 0);
  const before = failed.slice(0, -RECENT_MINUTES);
  const earlier = before.reduce((sum, n) => sum + n, 0);
  if (recent === 0) return null;
  if (earlier === 0) {
    return `${
      grouped.format(recent)
    } failed in the last ${RECENT_MINUTES} min, none in the ${before.length} min before`;
  }
  const ratio = (recent / RECENT_MINUTES) / (earlier / before.length);
  if (ratio < FAILURE_SURGE) return null;
  return `failures ${Math.round(ratio)}× the pace of the ${before.length} min before (${
    grouped.format(recent)
  } in the last ${RECENT_MINUTES} min)`;
}

/** One task's line: its verdict, backlog, oldest waiting job, the health's reason, a failure surge. */
function taskLine(task: OverviewTask): string {
  const { stats, health, latency } = task;
  const facts = [`${grouped.format(stats.waiting)} waiting`];
  if (latency.oldestWaiting) facts.push(`oldest ${roughDuration(latency.oldestWaiting.ageMs)}`);
  facts.push(`${grouped.format(stats.active)} active`);
  if (stats.retrying > 0) facts.push(`${grouped.format(stats.retrying)} retrying`);
  const causes = [health.reason];
  const surge = failureSurge(task);
  if (surge) causes.push(surge);
  return `${task.name}: ${health.status}: ${facts.join(", ")}; ${causes.join("; ")}`;
}

/** The order a report names tasks in: critical first, then warnings. */
const SEVERITY = { critical: 0, warning: 1, healthy: 2, idle: 3 } as const;

/**
 * The report: a summary line, then one line per task that is not healthy or
 * idle (worst first, then the longest backlog).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { healthReport } from "./health_report.ts";
 *
 * const text = healthReport({
 *   tasks: [{
 *     name: "billing",
 *     stats: { waiting: 3200, active: 0, delayed: 0, retrying: 0, failed: 40, completed: 10, cancelled: 0, expired: 0 },
 *     retryingAsOf: null,
 *     health: { status: "critical", reason: "3200 waiting, none taken for 9 min (over 5 min): no worker is taking jobs", failureRate: 0.8, noProgress: true },
 *     latency: { oldestWaiting: { id: "a", since: 0, ageMs: 14 * 60_000 }, mostOverdue: null },
 *     rate: { from: 0, bucketMs: 60_000, completed: Array(60).fill(0), failed: [...Array(45).fill(1), ...Array(15).fill(4)] },
 *   }],
 *   matched: 1,
 *   totals: { waiting: 3200, active: 0, delayed: 0, failed: 40, completed: 10, cancelled: 0, expired: 0 },
 *   healthCounts: { healthy: 0, warning: 0, critical: 1, idle: 0 },
 *   asOf: 0,
 *   redis: { version: "7", usedMemory: "1M", uptime: 1, connected: true },
 *   uptime: 1,
 * });
 * assert.match(text, /^1 task: 1 critical, 0 warning, 0 healthy, 0 idle; 3,200 waiting/);
 * assert.match(text, /billing: critical: 3,200 waiting, oldest 14 min, 0 active; .*no worker is taking jobs; failures 4× the pace of the 45 min before/);
 * ```
 */
export function healthReport(overview: OverviewResponse): string {
  const { healthCounts } = overview;
  const troubled = overview.tasks
    .filter((task) => task.health.status === "critical" || task.health.status === "warning")
    .sort((a, b) =>
      SEVERITY[a.health.status] - SEVERITY[b.health.status] || b.stats.waiting - a.stats.waiting
    );
  const summary =
    `${
      countOf(overview.tasks.length, "task")
    }: ${healthCounts.critical} critical, ${healthCounts.warning} warning, ` +
    `${healthCounts.healthy} healthy, ${healthCounts.idle} idle; ${
      grouped.format(overview.totals.waiting)
    } waiting, ${grouped.format(overview.totals.failed)} failed in all` +
    (overview.redis.connected ? "" : "; Redis is not connected");
  if (troubled.length === 0) return `${summary}. Nothing needs attention.`;
  return [summary + ".", ...troubled.map(taskLine)].join("\n");
}
