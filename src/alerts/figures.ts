/**
 * What each rule kind measures, from one snapshot of figures: the overview's
 * counts and queue heads per task, plus what some kinds need (recent
 * throughput, the active jobs without a lock, the stall check's re-runs, the last take, the error shapes of the
 * failed jobs, the schedules, Redis' memory, the migration lock).
 *
 * @module
 */

import type { AlertRule, LockSeen } from "../contract/alerts.ts";
import type { QueueHeads } from "../contract/health.ts";
import type { QueueStats } from "../contract/states.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";
import type { KnownShapes } from "./known_shapes.ts";

/** What a snapshot holds of one task. */
export interface TaskFigures {
  /** Its counts per state. */
  stats: QueueStats;
  /** The oldest waiting and active jobs and the delayed job due first. */
  heads: QueueHeads;
  /** Its recent one-minute buckets, as long as the longest `failureRate` window. */
  throughput: readonly ThroughputBucket[];
  /** Its active jobs without a lock, among the oldest (see `contract/liveness.ts`). */
  stalled: number;
  /** How many times taskora's stall check put its jobs back to waiting in the last 15 min. */
  reruns: number;
  /** When a worker last took one of its jobs, ms, or null when not known. */
  lastTakenAt: number | null;
  /** The error shapes (`errorPattern`) of its failed jobs. */
  errorShapes: readonly string[];
}

/** What a snapshot holds of one schedule. */
export interface ScheduleFigures {
  name: string;
  task: string;
  nextRun: number | null;
  lastRun: number | null;
  paused: boolean;
}

/** Everything one evaluation reads; a part the store could not give is null. */
export interface AlertSnapshot {
  tasks: ReadonlyMap<string, TaskFigures> | null;
  schedules: readonly ScheduleFigures[] | null;
  redis: { connected: boolean; usedMemoryBytes: number; maxMemoryBytes: number | null };
  /**
   * Since when taskora's migration lock is held (null: not held), and, for a
   * lock that does not say, when it was first seen (kept for the next pass).
   */
  migrationLock: { heldSince: number | null; seen?: LockSeen } | null;
}

/** One instance of a rule, measured. */
export interface Measure {
  /** What the instance is about: a task, a schedule's name, or null for the store. */
  subject: string | null;
  /** The task it concerns. */
  task: string | null;
  /** The schedule, for `scheduleMissed`. */
  schedule?: string;
  /** In the threshold's unit; null when it cannot be measured. */
  figure: number | null;
  breached: boolean;
}

/** The throughput buckets' width, ms. */
const MINUTE = 60_000;

function percent(part: number, whole: number): number {
  return Math.round((part / whole) * 10_000) / 100;
}

function since(now: number, at: number | null | undefined): number {
  return at === null || at === undefined ? 0 : Math.max(0, now - at);
}

/** The figure a per-task kind compares with its threshold (null for the others). */
function taskFigure(rule: AlertRule, figures: TaskFigures, now: number): number | null {
  const { stats, heads } = figures;
  switch (rule.kind) {
    case "failed":
      return stats.failed;
    case "backlog":
      return stats.waiting;
    case "oldestWaiting":
      return since(now, heads.oldestWaiting?.since);
    case "overdue":
      return since(now, heads.nextDue?.at);
    case "stalled":
      return figures.stalled;
    case "reruns":
      return figures.reruns;
    case "noProgress": {
      if (stats.waiting === 0) return 0;
      // Time with work waiting and no take: from the later of the last take
      // and the oldest waiting job's arrival.
      const from = Math.max(
        figures.lastTakenAt ?? -Infinity,
        heads.oldestWaiting?.since ?? -Infinity,
      );
      return Number.isFinite(from) ? since(now, from) : 0;
    }
    default:
      return null;
  }
}

/**
 * The failure rate (%) over the rule's window, and how many jobs finished in
 * it: every one-minute bucket the window overlaps, the one it starts in
 * included. The counters are per minute, so up to a minute before the
 * window counts too; leaving that bucket out would drop the failures inside
 * the window with it (an alert resolved before they left it).
 */
function failureRate(rule: AlertRule, figures: TaskFigures, now: number) {
  let failed = 0;
  let finished = 0;
  for (const bucket of figures.throughput) {
    if (bucket.timestamp + MINUTE <= now - rule.windowMs!) continue;
    failed += bucket.failed;
    finished += bucket.completed + bucket.failed;
  }
  return { figure: finished === 0 ? 0 : percent(failed, finished), finished };
}

/** Whether `rule` covers `task` (a rule with no task list covers every task). */
export function inScope(rule: AlertRule, task: string): boolean {
  return rule.tasks === null || rule.tasks.includes(task);
}

function measureTasks(
  rule: AlertRule,
  tasks: ReadonlyMap<string, TaskFigures>,
  shapes: KnownShapes,
  now: number,
): Measure[] {
  const measures: Measure[] = [];
  for (const [task, figures] of tasks) {
    if (!inScope(rule, task)) continue;
    if (rule.kind === "failureRate") {
      const { figure, finished } = failureRate(rule, figures, now);
      const breached = finished >= rule.minFinished! && figure > rule.threshold;
      measures.push({ subject: task, task, figure, breached });
    } else if (rule.kind === "newErrorGroup") {
      const figure = shapes.observe(task, figures.errorShapes, now).length;
      measures.push({ subject: task, task, figure, breached: figure > 0 });
    } else {
      const figure = taskFigure(rule, figures, now)!;
      measures.push({ subject: task, task, figure, breached: figure > rule.threshold });
    }
  }
  return measures;
}

function measureSchedules(rule: AlertRule, schedules: readonly ScheduleFigures[], now: number) {
  return schedules.filter((schedule) => inScope(rule, schedule.task)).map((schedule): Measure => {
    const { nextRun, lastRun } = schedule;
    const due = !schedule.paused && nextRun !== null && (lastRun === null || lastRun < nextRun);
    const figure = due ? since(now, nextRun) : 0;
    return {
      subject: schedule.name,
      task: schedule.task,
      schedule: schedule.name,
      figure,
      breached: figure > rule.threshold,
    };
  });
}

/**
 * Measures every instance of `rule` in `snapshot` at `now` (ms since the
 * epoch): one per task in scope, per schedule (`scheduleMissed`), or one for
 * the store. Null when the snapshot lacks what the rule reads (the store did
 * not answer): its alerts then stay as they are. `newErrorGroup` notes the
 * shapes it sees in `shapes`.
 */
export function measure(
  rule: AlertRule,
  snapshot: AlertSnapshot,
  shapes: KnownShapes,
  now: number,
): Measure[] | null {
  switch (rule.kind) {
    case "redis": {
      const { connected, usedMemoryBytes, maxMemoryBytes } = snapshot.redis;
      const figure = connected && maxMemoryBytes ? percent(usedMemoryBytes, maxMemoryBytes) : null;
      const breached = !connected || (figure !== null && figure > rule.threshold);
      return [{ subject: null, task: null, figure, breached }];
    }
    case "migrationLock": {
      if (snapshot.migrationLock === null) return null;
      const figure = since(now, snapshot.migrationLock.heldSince);
      return [{ subject: null, task: null, figure, breached: figure > rule.threshold }];
    }
    case "scheduleMissed":
      return snapshot.schedules && measureSchedules(rule, snapshot.schedules, now);
    default:
      return snapshot.tasks && measureTasks(rule, snapshot.tasks, shapes, now);
  }
}
