/**
 * Rules and snapshots of figures for the evaluator's tests, written as
 * briefly as the test needs.
 *
 * @module
 */

import type { AlertSnapshot, TaskFigures } from "../../src/alerts/figures.ts";
import type { AlertKind, AlertRule } from "../../src/contract/alerts.ts";
import { JOB_STATES, type QueueStats } from "../../src/contract/states.ts";

/** A rule of `kind` named after it, on every task, telling the sink `ops`. */
export function ruleOf(kind: AlertKind, threshold: number, extra: Partial<AlertRule> = {}) {
  const rule: AlertRule = {
    name: kind,
    kind,
    tasks: null,
    threshold,
    windowMs: null,
    minFinished: null,
    forMs: 0,
    repeatMs: 0,
    sinks: ["ops"],
  };
  return { ...rule, ...extra };
}

/** A task's figures: these counts (the others 0), nothing at the heads, nothing stalled. */
export function taskFigures(
  stats: Partial<QueueStats> = {},
  extra: Partial<TaskFigures> = {},
): TaskFigures {
  const none = Object.fromEntries(JOB_STATES.map((state) => [state, 0])) as QueueStats;
  return {
    stats: { ...none, ...stats },
    heads: { oldestWaiting: null, oldestActive: null, nextDue: null },
    throughput: [],
    stalled: 0,
    reruns: 0,
    lastTakenAt: null,
    errorShapes: [],
    ...extra,
  };
}

/** A snapshot of these tasks, no schedules, Redis up with no maxmemory, no migration lock. */
export function snapshotOf(
  tasks: Record<string, TaskFigures>,
  extra: Partial<AlertSnapshot> = {},
): AlertSnapshot {
  return {
    tasks: new Map(Object.entries(tasks)),
    schedules: [],
    redis: { connected: true, usedMemoryBytes: 0, maxMemoryBytes: null },
    migrationLock: { heldSince: null },
    ...extra,
  };
}
