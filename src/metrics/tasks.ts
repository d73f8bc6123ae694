/**
 * Which tasks get series of their own in a scrape: at most `maxTasks`, the
 * ones holding the most jobs (all eight states together; ties by name), so
 * that the choice follows the busy tasks and stays put between scrapes
 * while their counts keep their order. The rest are summed under one label,
 * {@link OTHER_TASKS}: a board with 10,000 tasks answers a scrape of
 * `maxTasks + 1` task label values, not 10,000.
 *
 * @module
 */

import type { QueueStats } from "../contract/states.ts";

/**
 * The `task` label of the sum of the tasks without series of their own. A
 * real task of that name is always counted in the sum, never given its own
 * series: two series with one label set would be a broken exposition.
 */
export const OTHER_TASKS = "(other)";

/** The tasks of a scrape, split. */
export interface SeriesTasks {
  /** Those with series of their own, most jobs first. */
  own: string[];
  /** Those summed under {@link OTHER_TASKS}. */
  other: string[];
}

function heldJobs(stats: QueueStats): number {
  let held = 0;
  for (const count of Object.values(stats)) held += count;
  return held;
}

/**
 * Splits `tasks` by the jobs each holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { seriesTasks } from "./tasks.ts";
 * const none = { waiting: 0, active: 0, delayed: 0, retrying: 0, failed: 0, completed: 0, cancelled: 0, expired: 0 };
 * assert.deepEqual(
 *   seriesTasks(new Map([["a", { ...none, waiting: 1 }], ["b", { ...none, failed: 9 }], ["c", none]]), 2),
 *   { own: ["b", "a"], other: ["c"] },
 * );
 * ```
 */
export function seriesTasks(stats: ReadonlyMap<string, QueueStats>, maxTasks: number): SeriesTasks {
  const ranked = [...stats]
    .filter(([task]) => task !== OTHER_TASKS)
    .map(([task, counts]) => ({ task, held: heldJobs(counts) }))
    .sort((a, b) => b.held - a.held || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0))
    .map(({ task }) => task);
  const own = ranked.slice(0, maxTasks);
  const other = ranked.slice(maxTasks);
  if (stats.has(OTHER_TASKS)) other.push(OTHER_TASKS);
  return { own, other };
}
