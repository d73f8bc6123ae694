/**
 * Reads the snapshot one evaluation needs through the TaskSource. The
 * tasks' figures come from the live state the leader keeps while it is at
 * most one stats interval old (`live_figures.ts`: two store reads whatever
 * the number of tasks); else from a direct read: the overview's counts,
 * queue heads and stalled jobs (for `stalled`) of the tasks in scope (one
 * snapshot read for all of them), and only what the configured kinds need
 * beyond them: throughput for `failureRate`, the stall check's re-runs of
 * the tasks a `reruns` rule covers, the last take of each task whose
 * `noProgress` verdict it could change, the dead-letter shapes for
 * `newErrorGroup`. Then the schedules for `scheduleMissed`, the migration
 * lock for `migrationLock`. A part the store does not give is null, so the
 * rules reading it keep their state.
 *
 * @module
 */

import {
  type AlertKind,
  type AlertRule,
  LOCK_SEEN_CHARS,
  type LockSeen,
  STORE_KINDS,
} from "../contract/alerts.ts";
import { lastTakeBound } from "../contract/health.ts";
import { HEALTH_EVENT_DEPTH } from "../contract/workers.ts";
import { RERUN_WINDOW_MS } from "../source/wire/reruns.ts";
import type { QueueSnapshot, TaskSource } from "../source/types.ts";
import type { FeedStore } from "../store/feed.ts";
import { type AlertSnapshot, inScope, type ScheduleFigures, type TaskFigures } from "./figures.ts";
import { errorShapesOf, readLiveFigures } from "./live_figures.ts";

const MINUTE = 60_000;

/** Null when `read` fails: the store did not answer for that part. */
async function optional<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch {
    return null;
  }
}

/** The tasks any per-task rule covers: null means every task. */
function scopeOf(rules: readonly AlertRule[]): Set<string> | null {
  const scope = new Set<string>();
  for (const rule of rules) {
    if (rule.tasks === null) return null;
    for (const task of rule.tasks) scope.add(task);
  }
  return scope;
}

/**
 * Whether the last take of a task's jobs could change a `noProgress` verdict
 * on it: its figure is at most the oldest waiting job's wait, so below every
 * threshold no take matters; an open alert's figure (told when it resolves)
 * is read exactly.
 */
function takeMatters(
  task: string,
  snapshot: QueueSnapshot | undefined,
  rules: readonly AlertRule[],
  now: number,
  open: ReadonlySet<string>,
): boolean {
  if (!snapshot || snapshot.stats.waiting === 0) return false;
  if (open.has(task)) return true;
  const since = snapshot.heads.oldestWaiting?.since;
  return rules.some((rule) =>
    rule.kind === "noProgress" && inScope(rule, task) &&
    (since === undefined || now - since > rule.threshold)
  );
}

/** What a snapshot is read for, beyond the rules and the time. */
export interface SnapshotOptions {
  /** The tasks with a `noProgress` alert pending or firing. */
  open?: ReadonlySet<string>;
  /** When the migration lock was first seen, as the last pass left it. */
  lockSeen?: LockSeen;
  /**
   * The live state's oldest age the task figures are taken from, ms (one
   * stats interval); absent: they are read directly.
   */
  liveMaxAgeMs?: number;
  /** Where the live state is kept (the board store's feed); absent or null: read directly. */
  feed?: FeedStore | null;
}

async function readTasks(
  source: TaskSource,
  rules: readonly AlertRule[],
  kinds: ReadonlySet<AlertKind>,
  now: number,
  { open = new Set(), liveMaxAgeMs, feed }: SnapshotOptions,
): Promise<Map<string, TaskFigures>> {
  const scope = scopeOf(rules);
  if (liveMaxAgeMs !== undefined && feed) {
    const query = { rules, scope, now, maxAgeMs: liveMaxAgeMs };
    const live = await readLiveFigures(source, feed, query);
    if (live !== null) return live;
  }
  const names = (await source.listTasks()).filter((task) => scope === null || scope.has(task));
  const snapshots = await source.getQueueSnapshots(names);
  const windowMs = Math.max(0, ...rules.map((rule) => rule.windowMs ?? 0));
  const throughput = windowMs > 0
    ? await source.getThroughputByTask(names, { count: Math.ceil(windowMs / MINUTE) + 1 })
    : new Map();
  // noProgress: when a worker last took a job, from one bounded stream read (the one the
  // overview's health makes), in one batch, of only the tasks where it matters: reading every
  // waiting task's stream on every pass costs a 1,000-task fleet's Redis 0.3 s (docs/cost.md).
  const taken = kinds.has("noProgress")
    ? names.filter((task) => takeMatters(task, snapshots.get(task), rules, now, open))
    : [];
  const activity = taken.length > 0 && source.readStreams
    ? await source.readStreams({ kind: "activity", tasks: taken, depth: HEALTH_EVENT_DEPTH })
    : new Map();
  // reruns: a bounded stream read per task, so only of the tasks a `reruns` rule covers.
  const rerunTasks = names.filter((task) =>
    rules.some((rule) => rule.kind === "reruns" && inScope(rule, task))
  );
  const reruns = rerunTasks.length > 0 && source.readStreams
    ? await source.readStreams({ kind: "reruns", tasks: rerunTasks, since: now - RERUN_WINDOW_MS })
    : new Map<string, number>();
  const tasks = new Map<string, TaskFigures>();
  for (const task of names) {
    const snapshot = snapshots.get(task);
    if (!snapshot) continue;
    tasks.set(task, {
      stats: snapshot.stats,
      heads: snapshot.heads,
      throughput: throughput.get(task) ?? [],
      stalled: snapshot.stalled?.total ?? 0,
      reruns: reruns.get(task) ?? 0,
      lastTakenAt: lastTakeBound(activity.get(task)),
      errorShapes: await errorShapesOf(source, task, kinds),
    });
  }
  return tasks;
}

async function readSchedules(source: TaskSource): Promise<ScheduleFigures[]> {
  return (await source.listSchedules()).map((schedule) => ({
    name: schedule.name,
    task: schedule.config.task,
    nextRun: schedule.nextRun,
    lastRun: schedule.lastRun,
    paused: schedule.paused,
  }));
}

/**
 * Since when the lock is held: its `startedAt`, else when it was first seen
 * (`seen`, by the last pass, when it is the same lock), else `now`. taskora
 * halts every worker under a lock whatever its payload says.
 */
async function readMigrationLock(source: TaskSource, now: number, seen: LockSeen | undefined) {
  const lock = await source.readLocks!({ kind: "migration" });
  if (lock === null) return { heldSince: null };
  if (lock.startedAt !== null) return { heldSince: lock.startedAt };
  const { by, reason, expectedDurationMs, targetWireVersion } = lock;
  const payload = (lock.raw ?? JSON.stringify([by, reason, expectedDurationMs, targetWireVersion]))
    .slice(0, LOCK_SEEN_CHARS);
  const at = seen?.lock === payload ? seen.at : now;
  return { heldSince: at, seen: { lock: payload, at } };
}

/** Reads what `rules` need at `now` (ms since the epoch). */
export async function readSnapshot(
  source: TaskSource,
  rules: readonly AlertRule[],
  now: number,
  options: SnapshotOptions = {},
): Promise<AlertSnapshot> {
  const kinds = new Set(rules.map((rule) => rule.kind));
  const taskRules = rules.filter((rule) =>
    !STORE_KINDS.includes(rule.kind) && rule.kind !== "scheduleMissed"
  );
  const info = await optional(() => source.getStoreInfo());
  return {
    tasks: taskRules.length === 0
      ? new Map()
      : await optional(() => readTasks(source, taskRules, kinds, now, options)),
    schedules: kinds.has("scheduleMissed") ? await optional(() => readSchedules(source)) : [],
    redis: {
      connected: info?.connected ?? false,
      usedMemoryBytes: info?.usedMemoryBytes ?? 0,
      maxMemoryBytes: info?.maxMemoryBytes ?? null,
    },
    migrationLock: kinds.has("migrationLock") && source.readLocks
      ? await optional(() => readMigrationLock(source, now, options.lockSeen))
      : { heldSince: null },
  };
}
