/**
 * Cancelling a job: at once when it waits, is delayed or waits for a retry;
 * by signalling its worker when it is active. What is written is described
 * at the `cancel` function of `action_scripts.ts`.
 *
 * @module
 */

import { BoardError } from "../../errors.ts";
import type { JobActionResult, JobState } from "../types.ts";
import { type TaskKeys, taskKeys } from "../wire/keys.ts";
import { CANCEL_JOB } from "./action_scripts.ts";
import type { RedisConnection } from "./client.ts";

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
  if (outcome === "missing") throw new BoardError("JOB_NOT_FOUND", `Job "${jobId}" not found`);
  if (outcome === "refused") {
    throw new BoardError(
      "INVALID_STATE",
      `Job ${jobId} is ${state}; only waiting, delayed, retrying or active jobs can be cancelled`,
    );
  }
  return {
    id: jobId,
    task,
    from: state as JobState,
    to: outcome === "signalled" ? "cancelling" : "cancelled",
  };
}
