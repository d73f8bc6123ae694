/**
 * Stalled jobs in a task's health: active jobs that hold no lock, which no
 * worker runs (see `liveness.ts`). A verdict of its own beside
 * {@link taskHealth}'s, from a figure the overview's snapshot read already
 * counts.
 *
 * @module
 */

import type { TaskHealth } from "./health.ts";
import type { StalledCount } from "./liveness.ts";
import { countOf } from "./plural.ts";

/**
 * `health`, or a warning when active jobs hold no lock: it comes before the
 * other warnings (they say how work goes; this says some work has no worker
 * at all, and with none left to run taskora's stall check it stays so), and
 * after the critical verdicts. `active` is the active count, to say when only
 * the oldest were looked at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withStalledJobs } from "./stalled_health.ts";
 * const healthy = { status: "healthy", reason: "no failures", failureRate: 0, noProgress: false } as const;
 * const health = withStalledJobs(healthy, { total: 3, checked: 3 }, 3);
 * assert.equal(health.status, "warning");
 * assert.equal(health.reason, "3 active jobs hold no lock: no worker runs them");
 * ```
 */
export function withStalledJobs(
  health: TaskHealth,
  stalled: StalledCount | null,
  active: number,
): TaskHealth {
  if (!stalled || stalled.total === 0 || health.status === "critical") return health;
  const jobs = stalled.checked < active
    ? `${stalled.total} of the ${stalled.checked} oldest active jobs hold`
    : `${countOf(stalled.total, "active job")} ${stalled.total === 1 ? "holds" : "hold"}`;
  const them = stalled.total === 1 ? "it" : "them";
  return { ...health, status: "warning", reason: `${jobs} no lock: no worker runs ${them}` };
}
