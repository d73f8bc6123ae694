/**
 * Retrying jobs: one failed or cancelled job, or every failed job of a task
 * in atomic batches. What a retry writes is described at
 * {@link RETRY_JOB} and the `requeue` function of `action_scripts.ts`.
 *
 * @module
 */

import type { BeforeBatch, JobActionResult, JobState, RetryableState } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import { RETRY_BATCH, RETRY_FAILED_BATCH, RETRY_JOB } from "./action_scripts.ts";
import type { Command, RedisConnection } from "./client.ts";
import { cannotRetry, jobNotFound } from "../refusals.ts";

/** Batch script calls sent per round trip by {@link retryAllFailed}. */
const CALLS_PER_ROUND_TRIP = 10;

function retryCommand(
  task: string,
  jobId: string,
  allowed: readonly RetryableState[],
  prefix?: string,
  data?: string,
): Command {
  const keys = taskKeys(task, prefix);
  const args: (string | number)[] = [keys.jobPrefix, jobId, Date.now(), allowed.join(",")];
  if (data !== undefined) args.push(data);
  return {
    script: RETRY_JOB,
    keys: [keys.wait, keys.prioritized, keys.marker, keys.events, keys.failed, keys.cancelled],
    args,
  };
}

/**
 * Sends a job of `task` back to waiting when its state is one of `from`
 * (one script call), its data replaced by `data` when given (serialized
 * with JSON, taskora's default serializer). `JOB_NOT_FOUND` when the hash
 * is gone, `INVALID_STATE` naming the state otherwise.
 */
export async function retryJob(
  connection: RedisConnection,
  task: string,
  jobId: string,
  from: readonly RetryableState[],
  prefix?: string,
  data?: { value: unknown },
): Promise<JobActionResult> {
  const allowed = [...new Set(from)];
  const serialized = data === undefined ? undefined : JSON.stringify(data.value);
  const [outcome, state] = await connection.call<[string, string?]>(
    retryCommand(task, jobId, allowed, prefix, serialized),
  );
  if (outcome === "missing") throw jobNotFound(jobId);
  if (outcome === "refused") {
    throw cannotRetry(jobId, state, allowed);
  }
  return { id: jobId, task, from: state as JobState, to: "waiting" };
}

/** Single-job retries sent per round trip by {@link retryFailedJobs}. */
const RETRIES_PER_ROUND_TRIP = 100;

/**
 * Sends the given failed jobs back to waiting, one {@link RETRY_JOB} call per
 * job, pipelined. A job that is no longer failed (retried meanwhile) is
 * skipped. `beforeBatch` is asked before each round trip; false stops there.
 * Returns how many were requeued.
 */
export async function retryFailedJobs(
  connection: RedisConnection,
  jobs: readonly { task: string; id: string }[],
  prefix?: string,
  beforeBatch?: BeforeBatch,
): Promise<number> {
  let retried = 0;
  for (let start = 0; start < jobs.length; start += RETRIES_PER_ROUND_TRIP) {
    if (beforeBatch && !await beforeBatch()) break;
    const calls = jobs.slice(start, start + RETRIES_PER_ROUND_TRIP).map(({ task, id }) =>
      retryCommand(task, id, ["failed"], prefix)
    );
    const replies = (await connection.pipeline(calls)) as [string, string?][];
    retried += replies.filter(([outcome]) => outcome !== "missing" && outcome !== "refused")
      .length;
  }
  return retried;
}

/**
 * Sends every failed job of `task` back to waiting, {@link RETRY_BATCH} per
 * script call (each call takes the oldest 100 left in the failed set, so
 * Redis is never blocked for long), ten calls per round trip. The number of
 * calls is fixed by the size of the failed set when it starts: jobs that
 * fail while it runs are left for the next retry-all. `beforeBatch` is
 * asked before each round trip; false stops there. Returns how many jobs
 * were requeued.
 */
export async function retryAllFailed(
  connection: RedisConnection,
  task: string,
  prefix?: string,
  beforeBatch?: BeforeBatch,
): Promise<number> {
  const keys = taskKeys(task, prefix);
  let left = await connection.call<number>(["ZCARD", keys.failed]);
  let retried = 0;
  while (left > 0 && (!beforeBatch || await beforeBatch())) {
    const calls = Math.min(Math.ceil(left / RETRY_BATCH), CALLS_PER_ROUND_TRIP);
    const batch: Command[] = Array.from({ length: calls }, () => ({
      script: RETRY_FAILED_BATCH,
      keys: [keys.wait, keys.prioritized, keys.marker, keys.events, keys.failed],
      args: [keys.jobPrefix, RETRY_BATCH, Date.now()],
    }));
    const replies = (await connection.pipeline(batch)) as [number, number][];
    for (const [taken, requeued] of replies) {
      retried += requeued;
      left -= RETRY_BATCH;
      if (taken < RETRY_BATCH) left = 0;
    }
  }
  return retried;
}
