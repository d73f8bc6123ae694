/**
 * An alert pass's task figures from the live state the leader keeps (see
 * `../store/feed.ts`), while it is at most one stats interval old: its
 * index names the tasks, and one read of their rows gives each one's
 * counts, queue heads, minutes of the last hour, last take and re-runs. So
 * a pass reads two store values whatever the number of tasks, and reads a
 * task's own keys only for what the live state cannot hold:
 *
 * - `stalled`: a lock runs out without an event, so the locks of the tasks
 *   with active jobs that a `stalled` rule covers are read (their queue
 *   snapshot, as the direct read does);
 * - `failureRate` over minutes before a row's first (a window longer than
 *   the hour a row holds): those tasks' counters;
 * - `newErrorGroup`: the dead-letter shapes, as the direct read does.
 *
 * @module
 */

import type { AlertKind, AlertRule } from "../contract/alerts.ts";
import { minuteOf } from "../contract/forecast.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";
import { readFreshSummary } from "../feed/live_read.ts";
import { rateBuckets, rateCovers } from "../feed/live_rate.ts";
import type { TaskSource } from "../source/types.ts";
import type { FeedStore, LiveRow } from "../store/feed.ts";
import { inScope, type TaskFigures } from "./figures.ts";

const MINUTE = 60_000;

/** What {@link readLiveFigures} reads for. */
export interface LiveFiguresQuery {
  /** The per-task rules of the pass. */
  rules: readonly AlertRule[];
  /** The tasks they cover; null: every task. */
  scope: ReadonlySet<string> | null;
  /** The pass's time, ms since the epoch. */
  now: number;
  /** The live state's oldest age served, ms (one stats interval). */
  maxAgeMs: number;
}

/** The error shapes of `task`'s failed jobs, when a `newErrorGroup` rule is among `kinds`. */
export async function errorShapesOf(
  source: TaskSource,
  task: string,
  kinds: ReadonlySet<AlertKind>,
): Promise<string[]> {
  if (!kinds.has("newErrorGroup")) return [];
  return (await source.groupDeadLetters(task)).map((group) => group.pattern);
}

/** Each task's active jobs without a lock, of the tasks with active jobs a `stalled` rule covers. */
async function readStalled(
  source: TaskSource,
  rows: readonly LiveRow[],
  rules: readonly AlertRule[],
): Promise<Map<string, number>> {
  const stalledRules = rules.filter((rule) => rule.kind === "stalled");
  const tasks = rows.filter((row) =>
    row.stats.active > 0 && stalledRules.some((rule) => inScope(rule, row.name))
  ).map((row) => row.name);
  if (tasks.length === 0) return new Map();
  const snapshots = await source.getQueueSnapshots(tasks);
  return new Map([...snapshots].map(([task, snapshot]) => [task, snapshot.stalled?.total ?? 0]));
}

/** The minutes of the longest `failureRate` window, from the rows where they hold it, else read. */
async function readThroughput(
  source: TaskSource,
  rows: readonly LiveRow[],
  rules: readonly AlertRule[],
  now: number,
): Promise<Map<string, readonly ThroughputBucket[]>> {
  const windowMs = Math.max(0, ...rules.map((rule) => rule.windowMs ?? 0));
  const throughput = new Map<string, readonly ThroughputBucket[]>();
  if (windowMs === 0) return throughput;
  // The first minute the window overlaps (see `failureRate` in `figures.ts`).
  const first = minuteOf(now - windowMs);
  const uncovered: string[] = [];
  for (const row of rows) {
    if (rateCovers(row.rate, first)) throughput.set(row.name, rateBuckets(row.rate));
    else uncovered.push(row.name);
  }
  if (uncovered.length === 0) return throughput;
  const count = Math.ceil(windowMs / MINUTE) + 1;
  for (const [task, buckets] of await source.getThroughputByTask(uncovered, { count })) {
    throughput.set(task, buckets);
  }
  return throughput;
}

/**
 * The figures of every task in `query.scope` from the live state of
 * `feed`; null when it is older than `query.maxAgeMs` at `query.now`, or
 * lacks a row of a task its index names (a leader dropping it meanwhile):
 * then the pass reads directly.
 */
export async function readLiveFigures(
  source: TaskSource,
  feed: FeedStore,
  { rules, scope, now, maxAgeMs }: LiveFiguresQuery,
): Promise<Map<string, TaskFigures> | null> {
  const summary = await readFreshSummary(feed, now, maxAgeMs);
  if (summary === null) return null;
  const names = summary.index.tasks.map((task) => task.name)
    .filter((task) => scope === null || scope.has(task));
  const read = await feed.readLiveRows(names);
  if (read.some((row) => row === null)) return null;
  const rows = read as LiveRow[];
  const kinds = new Set(rules.map((rule) => rule.kind));
  const [stalled, throughput] = await Promise.all([
    kinds.has("stalled") ? readStalled(source, rows, rules) : new Map<string, number>(),
    readThroughput(source, rows, rules, now),
  ]);
  const tasks = new Map<string, TaskFigures>();
  for (const row of rows) {
    tasks.set(row.name, {
      stats: row.stats,
      heads: row.heads,
      throughput: throughput.get(row.name) ?? [],
      stalled: stalled.get(row.name) ?? 0,
      reruns: row.reruns,
      lastTakenAt: row.lastTakenAt,
      errorShapes: await errorShapesOf(source, row.name, kinds),
    });
  }
  return tasks;
}
