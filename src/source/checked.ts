/**
 * `checkedSource`: the refusals of the port, given once around any
 * {@link TaskSource}, so that no adapter repeats them at the top of its
 * methods and a source of one's own refuses as the board's own do: an
 * argument the port does not take is `INVALID_PARAM` naming it, a task the
 * source does not know is `TASK_NOT_FOUND`. Arguments are checked first
 * (they cost nothing), then the task, against the source's cached
 * `listTasks()` (no store read on the Redis source while its list is
 * fresh). An adapter answers an unknown task as an empty one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createMemorySource } from "./memory/mod.ts";
 * import { checkedSource } from "./checked.ts";
 *
 * const source = checkedSource(createMemorySource());
 * await assert.rejects(source.listJobs("ghost", "waiting", 0, 10), { code: "TASK_NOT_FOUND" });
 * await assert.rejects(source.listJobs("ghost", "waiting", -1, 10), { param: "offset" });
 * ```
 *
 * @module
 */

import { invalidParam } from "../errors.ts";
import { checkSchedulePatch } from "./schedule_patch.ts";
import { assertCleanable, listOr, taskNotFound } from "./refusals.ts";
import {
  JOB_STATES,
  type LockQuery,
  RETRYABLE_STATES,
  type TaskSource,
  type ThroughputQuery,
} from "./types.ts";

/** The methods of the port (its optional ones included). */
type Methods = {
  [K in keyof TaskSource]-?: NonNullable<TaskSource[K]> extends (...args: infer A) => unknown
    ? (...args: A) => string | undefined
    : never;
};

/**
 * For each method that takes something to check, the check of its
 * arguments (throwing `INVALID_PARAM`), answering the task it names, which
 * must be known (undefined: none, or all tasks).
 */
const CHECKS: Partial<Methods> = {
  getTaskStorage: (task) => task,
  getFinishedTimings: (task, limit) => (wholeNumber("limit", limit), task),
  getVersionDistribution: (task) => task,
  getTaskDefinition: (task) => task,
  listJobs: (task, state, offset, limit) => (jobState(state), page(offset, limit), task),
  searchJobs: (task, state) => (jobState(state), task),
  getJobLogs: (_jobId, offset, limit) => (page(offset, limit), undefined),
  findJobsByIdPrefix: (_prefix, limit) => (wholeNumber("limit", limit), undefined),
  retryJob: (_jobId, options) => (retryableFrom(options?.from), undefined),
  cleanJobs: (task, state, olderThanMs) => (assertCleanable(state, olderThanMs), task),
  countBulk: (_action, selector) => selector.task,
  bulkStep: (task) => task,
  updateSchedule: (_name, patch) => (checkSchedulePatch(patch), undefined),
  listWorkflows: (offset, limit) => (page(offset, limit), undefined),
  listDeadLetters: (offset, limit, task) => (page(offset, limit), task),
  groupDeadLetters: (task) => task,
  retryAllFailed: (scope) => scope?.task,
  getThroughput: (query) => (buckets(query), query?.task),
  getThroughputByTask: (_tasks, query) => (buckets(query), undefined),
  readLocks: (read) => lockTask(read),
  scanMechanics: (task) => task,
};

/** A miss rediscovers the tasks at most this often (ms): unknown names cannot each start a SCAN. */
export const MISS_REFRESH_MS = 10_000;

/** Marks a source made by {@link checkedSource}: checked once, not twice. */
const CHECKED = Symbol("queue-board.checked");

/** Options of {@link checkedSource}. */
export interface CheckedSourceOptions {
  /** The clock of the miss's rediscovery (ms; default `Date.now`). */
  now?: () => number;
}

/**
 * `source` with the port's refusals applied before each of its methods
 * runs; every other member is the source's own (its private state intact,
 * its optional methods still absent where it has none). A source checked
 * already is returned as it is.
 */
export function checkedSource<S extends TaskSource>(
  source: S,
  options: CheckedSourceOptions = {},
): S {
  if ((source as { [CHECKED]?: true })[CHECKED]) return source;
  const requireTask = taskRequirement(source, options.now ?? Date.now);
  const made = new WeakMap<object, unknown>();
  return new Proxy(source, {
    get(target, key) {
      if (key === CHECKED) return true;
      const value = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (!made.has(value)) {
        const check = CHECKS[key as keyof Methods] as ((...args: unknown[]) => unknown) | undefined;
        made.set(
          value,
          check
            ? async (...args: unknown[]) => {
              const task = check(...args);
              if (typeof task === "string") await requireTask(task);
              return await value.apply(target, args);
            }
            : value.bind(target),
        );
      }
      return made.get(value);
    },
  });
}

/**
 * Refuses a task `source` does not know: listed (cached), or found by a
 * rediscovery, at most one every {@link MISS_REFRESH_MS}, shared by the
 * misses that ask meanwhile.
 */
function taskRequirement(source: TaskSource, now: () => number) {
  let refreshedAt = -Infinity;
  let refreshing: Promise<string[]> | null = null;
  const refreshOnMiss = (): Promise<string[]> | null => {
    if (refreshing) return refreshing;
    if (now() - refreshedAt < MISS_REFRESH_MS) return null;
    refreshedAt = now();
    refreshing = source.listTasks({ fresh: true }).finally(() => refreshing = null);
    return refreshing;
  };
  return async (task: string): Promise<void> => {
    if ((await source.listTasks()).includes(task)) return;
    if ((await refreshOnMiss())?.includes(task)) return;
    throw taskNotFound(task);
  };
}

/** The task a read of locks names (its limit checked), if it names one. */
function lockTask(read: LockQuery): string | undefined {
  if (read.kind === "active") wholeNumber("limit", read.limit);
  return read.kind === "jobs" || read.kind === "active" ? read.task : undefined;
}

/** A state of the port's, by name. */
function jobState(state: string): void {
  if (!(JOB_STATES as readonly string[]).includes(state)) {
    throw invalidParam("state", `${JSON.stringify(state)} is not one of ${listOr(JOB_STATES)}`);
  }
}

/** A whole number, 0 or more. */
function wholeNumber(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw invalidParam(name, `must be a whole number, 0 or more (got ${value})`);
  }
}

/** A page's start and size. */
function page(offset: number, limit: number): void {
  wholeNumber("offset", offset);
  wholeNumber("limit", limit);
}

/** Throughput buckets: a whole number of minutes wide, one or more of them. */
function buckets(query: Omit<ThroughputQuery, "task"> = {}): void {
  const { bucketMs, count } = query;
  if (
    bucketMs !== undefined &&
    !(Number.isSafeInteger(bucketMs) && bucketMs > 0 && bucketMs % 60_000 === 0)
  ) {
    throw invalidParam("bucketMs", "must be a positive multiple of 60000");
  }
  if (count !== undefined && !(Number.isSafeInteger(count) && count > 0)) {
    throw invalidParam("count", "must be a positive integer");
  }
}

/** The states a retry is asked to take a job from: some of failed and cancelled. */
function retryableFrom(from: readonly string[] | undefined): void {
  const retryable: readonly string[] = RETRYABLE_STATES;
  if (from !== undefined && (from.length === 0 || from.some((s) => !retryable.includes(s)))) {
    throw invalidParam("from", "retry works from failed and/or cancelled");
  }
}
