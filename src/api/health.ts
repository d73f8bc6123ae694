/**
 * A task's health at a glance, from its counts and its last minutes of
 * throughput.
 *
 * @module
 */

import type { QueueStats, ThroughputBucket } from "../source/types.ts";

/** How a task is doing. */
export interface TaskHealth {
  status: "healthy" | "warning" | "critical" | "idle";
  /** Why, in words an operator reads during an incident. */
  reason: string;
  /** Share of failed among finished jobs in the window (0–1), null when nothing finished. */
  failureRate: number | null;
}

/** Minutes of throughput the health looks at. */
export const HEALTH_WINDOW_MINUTES = 15;

/**
 * Judges a task: critical when at least half of recent jobs failed or work
 * waits with nothing running and nothing finishing; warning at 10 % failures
 * or when jobs are retrying; idle when there is nothing to do.
 */
export function taskHealth(stats: QueueStats, recent: ThroughputBucket[]): TaskHealth {
  let completed = 0;
  let failed = 0;
  for (const bucket of recent) {
    completed += bucket.completed;
    failed += bucket.failed;
  }
  const finished = completed + failed;
  const failureRate = finished === 0 ? null : failed / finished;
  const percent = failureRate === null ? "" : `${Math.round(failureRate * 100)} %`;
  const window = `the last ${HEALTH_WINDOW_MINUTES} min`;

  if (failureRate !== null && failureRate >= 0.5) {
    return { status: "critical", reason: `${percent} of jobs failed in ${window}`, failureRate };
  }
  if (stats.waiting > 0 && stats.active === 0 && finished === 0) {
    return {
      status: "critical",
      reason: `${stats.waiting} waiting, none running or finished in ${window}`,
      failureRate,
    };
  }
  if (failureRate !== null && failureRate >= 0.1) {
    return { status: "warning", reason: `${percent} of jobs failed in ${window}`, failureRate };
  }
  if (stats.retrying > 0) {
    return { status: "warning", reason: `${stats.retrying} jobs retrying`, failureRate };
  }
  const pending = stats.waiting + stats.active + stats.delayed + stats.retrying;
  if (pending === 0 && finished === 0) {
    return { status: "idle", reason: "nothing queued or finished recently", failureRate };
  }
  return {
    status: "healthy",
    reason: failureRate === null ? "no failures" : `${percent} failures in ${window}`,
    failureRate,
  };
}
