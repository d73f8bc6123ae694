/**
 * Choosing and ordering the overview's tasks: a filter by name (`q`), by
 * health or by name prefix, a sort, a page, the health summary and the
 * groups by name prefix. The route applies it to its answer and the UI names
 * the same sorts, statuses and prefixes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskMatches } from "./task_list.ts";
 *
 * assert.ok(taskMatches("billing.charge", { q: "CHAR" }));
 * assert.ok(taskMatches("billing.charge", { prefix: "billing." }));
 * assert.ok(!taskMatches("billing.charge", { prefix: "email." }));
 * ```
 *
 * @module
 */

import type { TaskHealth } from "./health.ts";
import { groupKeys, inGroup } from "./name_groups.ts";
import type { QueueLatency } from "./latency.ts";
import { JOB_STATES, type JobState, type QueueStats } from "./states.ts";

/** The health verdicts, the ones that need attention first. */
export const HEALTH_STATUSES = ["critical", "warning", "healthy", "idle"] as const;

/** A health verdict. */
export type HealthStatus = (typeof HEALTH_STATUSES)[number];

/**
 * The task orders: `health` (critical first), `oldest` (the longest-waiting
 * job first), `name`, or a job state (the most jobs in it first).
 */
export const TASK_SORTS = ["health", "oldest", "name", ...JOB_STATES] as const;

/** A task order. */
export type TaskSort = (typeof TASK_SORTS)[number];

/** Which tasks, in which order, which page. */
export type TaskListQuery = {
  /** Names containing this, any case. */
  q?: string;
  /** Tasks with this verdict only. */
  health?: HealthStatus;
  /** Tasks of this group (its `prefix`, see {@link groupKeys}). */
  prefix?: string;
  /** The order; by name when absent. */
  sort?: TaskSort;
  /** At most this many tasks; all when absent. */
  limit?: number;
  /** Skip this many of the matching tasks. */
  offset?: number;
};

/**
 * What the filter, the sorts and the groups read of a task: an overview task,
 * or the leader's index of every task (no more than this, so a page of it
 * reads only the rows it shows).
 */
export interface ListedTask {
  /** The task name. */
  name: string;
  /** Its job counts. */
  stats: QueueStats;
  /** Its verdict. */
  health: Pick<TaskHealth, "status">;
  /** Since when its oldest waiting job waits. */
  latency: { oldestWaiting: Pick<NonNullable<QueueLatency["oldestWaiting"]>, "since"> | null };
}

/** How many tasks have each verdict. */
export type HealthCounts = Record<HealthStatus, number>;

/** The tasks sharing a name prefix, and their counts added up. */
export interface TaskGroup {
  /** The group's key (see {@link groupKeys}): `billing.`, `send-`, or a whole name alone in its group. */
  prefix: string;
  /** How many tasks it holds. */
  tasks: number;
  /** Their job counts added up. */
  stats: QueueStats;
  /** Their verdicts counted. */
  health: HealthCounts;
}

/** Whether a task name passes the query's `q` and `prefix`. */
export function taskMatches(name: string, { q, prefix }: Pick<TaskListQuery, "q" | "prefix">) {
  if (prefix !== undefined && !inGroup(name, prefix)) return false;
  return q === undefined || name.toLowerCase().includes(q.toLowerCase());
}

const RANK: Record<string, number> = { critical: 0, warning: 1, healthy: 2, idle: 3 };
const byName = (a: ListedTask, b: ListedTask) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
const waitedSince = (task: ListedTask) => task.latency.oldestWaiting?.since ?? Infinity;

/** The comparison of a sort; ties go by name. */
export function compareBy(sort: TaskSort): (a: ListedTask, b: ListedTask) => number {
  const key: (task: ListedTask) => number = sort === "health"
    ? (task) => RANK[task.health.status] ?? 1.5
    : sort === "oldest"
    ? waitedSince
    : sort === "name"
    ? () => 0
    : (task) => -task.stats[sort as JobState];
  return (a, b) => key(a) - key(b) || byName(a, b);
}

/** How many tasks have each verdict. */
export function healthCounts(tasks: Iterable<ListedTask>): HealthCounts {
  const counts: HealthCounts = { critical: 0, warning: 0, healthy: 0, idle: 0 };
  for (const { health } of tasks) {
    if (health.status in counts) counts[health.status as HealthStatus]++;
  }
  return counts;
}

/** The groups of `tasks` by {@link groupKeys}, sorted by prefix. */
export function groupsOf(tasks: readonly ListedTask[]): TaskGroup[] {
  const keyOf = groupKeys(tasks.map((task) => task.name));
  const groups = new Map<string, TaskGroup>();
  for (const task of tasks) {
    const prefix = keyOf(task.name);
    let group = groups.get(prefix);
    if (!group) {
      group = {
        prefix,
        tasks: 0,
        stats: Object.fromEntries(JOB_STATES.map((s) => [s, 0])) as QueueStats,
        health: { critical: 0, warning: 0, healthy: 0, idle: 0 },
      };
      groups.set(prefix, group);
    }
    group.tasks++;
    for (const state of JOB_STATES) group.stats[state] += task.stats[state];
    if (task.health.status in group.health) group.health[task.health.status as HealthStatus]++;
  }
  return [...groups.values()].sort((a, b) => a.prefix < b.prefix ? -1 : 1);
}

/** The tasks the query asks for, and how many matched before the page was cut. */
export function selectTasks<T extends ListedTask>(
  tasks: readonly T[],
  query: TaskListQuery,
): { tasks: T[]; matched: T[] } {
  const { health, sort = "name", offset = 0, limit } = query;
  const matched = tasks.filter((task) =>
    taskMatches(task.name, query) && (health === undefined || task.health.status === health)
  );
  return {
    matched,
    tasks: matched.toSorted(compareBy(sort)).slice(
      offset,
      limit === undefined ? undefined : offset + limit,
    ),
  };
}
