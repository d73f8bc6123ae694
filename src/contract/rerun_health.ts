/**
 * Re-runs in a task's health: jobs taskora 0.5.0's stall check put back to
 * waiting (`stalled` entries with `action` `recovered`), which then run
 * again, whether their worker died or they had finished (the check does not
 * look at the state; see docs/diagnosis.md, "Jobs that ran twice"). A
 * verdict beside {@link taskHealth}'s, from what the change feed counts.
 *
 * @module
 */

import type { TaskHealth } from "./health.ts";
import { countOf } from "./plural.ts";

/** The span re-runs count over in the health, min (the `reruns` alert kind's too). */
export const RERUN_HEALTH_MINUTES = 15;

/**
 * `health`, or a warning naming how many re-runs the stall check made in
 * the last {@link RERUN_HEALTH_MINUTES} min when the task is otherwise
 * healthy or idle; a verdict that already needs attention keeps its reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withReruns } from "./rerun_health.ts";
 * const healthy = { status: "healthy", reason: "no failures", failureRate: 0, noProgress: false } as const;
 * const health = withReruns(healthy, 2);
 * assert.equal(health.status, "warning");
 * assert.equal(health.reason, "2 jobs re-run by taskora's stall check in the last 15 min");
 * assert.equal(withReruns(healthy, 0), healthy);
 * ```
 */
export function withReruns(health: TaskHealth, reruns: number): TaskHealth {
  if (reruns === 0 || health.status === "critical" || health.status === "warning") return health;
  return {
    ...health,
    status: "warning",
    reason: `${
      countOf(reruns, "job")
    } re-run by taskora's stall check in the last ${RERUN_HEALTH_MINUTES} min`,
  };
}
