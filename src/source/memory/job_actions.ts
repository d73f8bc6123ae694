/**
 * What the board's job buttons do to a memory store: retry one job, cancel
 * one job, retry every failed job, clean finished jobs. Each follows the rule
 * of the taskora script it stands for (retryDLQ, cancel, retryAllDLQ,
 * cleanJobs; see `store.ts`) and answers or refuses exactly as the Redis
 * source does.
 *
 * @module
 */

import { BoardError } from "../../errors.ts";
import {
  type BeforeBatch,
  type FinishedState,
  type JobActionResult,
  type JobState,
  type RerunResult,
  RETRYABLE_STATES,
  type RetryableState,
} from "../types.ts";
import type { MemoryStore, StoredJob } from "./store.ts";
import { currentDispatch } from "./schedule_actions.ts";
import { cannotCancel, cannotRetry, jobNotFound } from "../refusals.ts";

/** Failed jobs sent back per step of a retry-all, as the Redis source does per script call. */
export const RETRY_BATCH = 100;

/** Finished jobs deleted per step of a clean, as the Redis source does per script call. */
export const CLEAN_BATCH = 500;

function findJob(store: MemoryStore, jobId: string): StoredJob {
  const job = store.findJob(jobId);
  if (!job) throw jobNotFound(jobId);
  return job;
}

/**
 * Sends a failed or cancelled job back to waiting (attempt 1, fresh `ts`),
 * its data replaced by `data` when given.
 *
 * @throws {BoardError} `JOB_NOT_FOUND` for an unknown id; `INVALID_STATE`
 * naming the job's state when it is in none of `from`.
 */
export function retryJob(
  store: MemoryStore,
  jobId: string,
  from: readonly RetryableState[] = RETRYABLE_STATES,
  data?: { value: unknown },
): JobActionResult {
  const job = findJob(store, jobId);
  const state = job.state;
  if (!(from as readonly JobState[]).includes(state)) {
    throw cannotRetry(jobId, state, from);
  }
  if (!store.retry(job.task, jobId)) {
    // The hash says failed or cancelled but the job is not in that set: retryDLQ refuses it too.
    throw new BoardError("INVALID_STATE", `Job ${jobId} is not in the ${state} set`);
  }
  if (data !== undefined) {
    // Stored as a worker would read it back from the hash: serialized and parsed again.
    job.data = JSON.parse(JSON.stringify(data.value));
    store.touch(job);
  }
  return { id: jobId, task: job.task, from: state, to: "waiting" };
}

/**
 * Dispatches a new job of the job's task with a copy of its data and the
 * task's current version and attempts (see `currentDispatch`; the job
 * itself is among the jobs it learns them from).
 *
 * @throws {BoardError} `JOB_NOT_FOUND` for an unknown id.
 */
export function rerunJob(store: MemoryStore, jobId: string): RerunResult {
  const job = findJob(store, jobId);
  const dispatch = currentDispatch(store, `Job ${jobId} was not run again`, job.task);
  const id = crypto.randomUUID();
  store.enqueue(job.task, { id, data: structuredClone(job.data), ...dispatch });
  return {
    jobId: id,
    task: job.task,
    version: dispatch.version,
    versionFrom: "recent-jobs",
    expireAtFrom: "not-set",
  };
}

/**
 * Cancels a waiting, delayed or retrying job at once (`cancelledAt` and
 * `finishedOn` both now, as the Redis source writes it); an active job is only
 * flagged (`cancelledAt`), and its worker finishes the cancel.
 *
 * @throws {BoardError} `JOB_NOT_FOUND` for an unknown id; `INVALID_STATE` for
 * a finished job.
 */
export function cancelJob(store: MemoryStore, jobId: string, reason?: string): JobActionResult {
  const job = findJob(store, jobId);
  const state = job.state;
  const outcome = store.cancel(job.task, jobId, reason ?? "", { stampCancelledAt: true });
  if (outcome === "not-cancellable") {
    throw cannotCancel(jobId, state);
  }
  return {
    id: jobId,
    task: job.task,
    from: state,
    to: outcome === "flagged" ? "cancelling" : "cancelled",
  };
}

/** Lets timers and I/O run between two batches of a long action. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Sends every failed job of the given tasks back to waiting, {@link RETRY_BATCH}
 * at a time, yielding between batches so one click never blocks the process
 * for long. `beforeBatch` is asked before each batch; false stops there.
 * Returns how many were retried.
 */
export async function retryAllFailed(
  store: MemoryStore,
  tasks: readonly string[],
  beforeBatch?: BeforeBatch,
): Promise<number> {
  let retried = 0;
  for (const task of tasks) {
    for (;;) {
      if (beforeBatch && !await beforeBatch()) return retried;
      const batch = store.retryFailed(task, RETRY_BATCH);
      retried += batch.retried;
      if (batch.taken < RETRY_BATCH) break;
      await yieldToEventLoop();
    }
  }
  return retried;
}

function cleanCutoff(store: MemoryStore, olderThanMs: number): number {
  // 0 means all of them, even one stamped a little ahead of this clock.
  return olderThanMs === 0 ? Infinity : store.now() - olderThanMs;
}

/** How many jobs {@link cleanJobs} would remove now. */
export function countCleanable(
  store: MemoryStore,
  task: string,
  state: FinishedState,
  olderThanMs: number,
): number {
  return store.countFinishedBefore(task, state, cleanCutoff(store, olderThanMs));
}

/**
 * Deletes, with their logs, the jobs of a finished set that finished at or
 * before `now - olderThanMs` (0: all of them), {@link CLEAN_BATCH} at a time.
 * Returns how many were removed.
 *
 * @throws {BoardError} `INVALID_PARAM` for a state that is not a finished one
 * or a negative age.
 */
export async function cleanJobs(
  store: MemoryStore,
  task: string,
  state: FinishedState,
  olderThanMs: number,
): Promise<number> {
  const cutoff = cleanCutoff(store, olderThanMs);
  let removed = 0;
  for (;;) {
    const count = store.clean(task, state, cutoff, CLEAN_BATCH);
    removed += count;
    if (count < CLEAN_BATCH) break;
    await yieldToEventLoop();
  }
  return removed;
}
