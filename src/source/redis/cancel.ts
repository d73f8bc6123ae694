/**
 * Cancelling a job: at once when it waits, is delayed or waits for a retry;
 * by signalling its worker when it is active. What is written is described
 * at the `cancel` function of `action_scripts.ts`.
 *
 * @module
 */

import type { JobActionResult, JobState } from "../types.ts";
import { type TaskKeys, taskKeys } from "../wire/keys.ts";
import { CANCEL_JOB } from "./action_scripts.ts";
import type { RedisConnection } from "./client.ts";
import { cannotCancel, jobNotFound } from "../refusals.ts";

/** The KEYS of the cancel scripts, in their order. */
export function cancelKeys(keys: TaskKeys): string[] {
  return [
    keys.wait,
    keys.prioritized,
    keys.delayed,
    keys.cancelled,
    keys.events,
    keys.cancelChannel,
  ];
}

/**
 * Cancels a job of `task` (one script call). Waiting, delayed and retrying
 * jobs become `cancelled`; an active job is flagged and its worker told on
 * the task's `:cancel` channel (`to: "cancelling"`). `JOB_NOT_FOUND` when
 * the hash is gone, `INVALID_STATE` naming the state for a finished job.
 */
export async function cancelJob(
  connection: RedisConnection,
  task: string,
  jobId: string,
  reason: string | undefined,
  prefix?: string,
): Promise<JobActionResult> {
  const keys = taskKeys(task, prefix);
  const [outcome, state] = await connection.call<[string, string?]>({
    script: CANCEL_JOB,
    keys: cancelKeys(keys),
    args: [keys.jobPrefix, Date.now(), reason ?? "", jobId],
  });
  if (outcome === "missing") throw jobNotFound(jobId);
  if (outcome === "refused") {
    throw cannotCancel(jobId, state);
  }
  return {
    id: jobId,
    task,
    from: state as JobState,
    to: outcome === "signalled" ? "cancelling" : "cancelled",
  };
}
