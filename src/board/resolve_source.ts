/**
 * What `createBoard` was given, as a `TaskSource`: the taskora App's source,
 * a Redis URL's (the board owns that connection), or a source of one's own,
 * checked for every required method of the port and given the port's
 * refusals (`source/checked.ts`), as the board's own sources are.
 *
 * @module
 */

import { createRedisSource } from "../source/redis/mod.ts";
import type { TaskSource } from "../source/types.ts";
import { checkedSource } from "../source/checked.ts";
import { createAppSource, isTaskoraApp } from "../taskora/mod.ts";
import type { TaskoraApp } from "../taskora/app.ts";

/** The keys of `T` that are not optional. */
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];

// `satisfies` makes `deno check` fail when a required port method is missing
// here or one named here leaves the port: a custom source is checked for all of them.
const REQUIRED_SOURCE_METHODS = {
  listTasks: true,
  getStats: true,
  retryingAsOf: true,
  getQueueSnapshots: true,
  getTaskStorage: true,
  getFinishedTimings: true,
  listJobs: true,
  getJob: true,
  getJobLogs: true,
  findJobsByIdPrefix: true,
  getVersionDistribution: true,
  listSchedules: true,
  listWorkflows: true,
  getWorkflow: true,
  listDeadLetters: true,
  groupDeadLetters: true,
  getThroughput: true,
  getThroughputByTask: true,
  getStoreInfo: true,
  retryJob: true,
  rerunJob: true,
  cancelJob: true,
  retryAllFailed: true,
  cleanJobs: true,
  triggerSchedule: true,
  updateSchedule: true,
  removeSchedule: true,
  cancelWorkflow: true,
  subscribe: true,
  close: true,
} as const satisfies Record<RequiredKeys<TaskSource>, true>;

const SOURCE_METHODS = Object.keys(REQUIRED_SOURCE_METHODS) as (keyof TaskSource)[];

/**
 * The source of `source`; `owned` when the board made it and closes it with
 * itself. `now` is the clock of a source of one's own's refusals (see
 * `checkedSource`): the board's; `leaseMs` the lease period of a source
 * made from a URL: the board's.
 */
export function resolveSource(
  source: TaskSource | TaskoraApp | string,
  now: () => number = Date.now,
  leaseMs?: number,
): { source: TaskSource; owned: boolean } {
  // The App's connection stays the App's: the source it gets borrows it.
  if (isTaskoraApp(source)) return { source: createAppSource(source), owned: true };
  if (typeof source === "string") {
    if (!/^rediss?:\/\//.test(source)) {
      throw new TypeError(
        `queue-board: source must be a taskora App, a TaskSource or a redis:// URL (got ${
          JSON.stringify(source)
        })`,
      );
    }
    return { source: createRedisSource({ url: source, leaseMs }), owned: true };
  }
  const missing = SOURCE_METHODS.filter((method) =>
    typeof (source as unknown as Record<string, unknown> | null)?.[method] !== "function"
  );
  if (missing.length > 0) {
    throw new TypeError(
      "queue-board: source must be a taskora App, a TaskSource or a redis:// URL " +
        `(missing ${missing.join(", ")})`,
    );
  }
  return { source: checkedSource(source as TaskSource, { now }), owned: false };
}
