/**
 * Running a job again without the App: a new job of the job's task with
 * the job's data, written as taskora's ENQUEUE writes a dispatch (the
 * trigger's script, `TRIGGER_DISPATCH`), its `_v` never guessed.
 *
 * @module
 */

import type { RerunResult } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { jobNotFound, versionUnknown } from "../refusals.ts";
import { dispatchAsTask } from "./schedule_actions.ts";

/**
 * Dispatches a new job (a random UUID, as taskora names jobs) of `task` with
 * job `jobId`'s stored `data` copied as it is (so its serialization is the
 * one the task's workers already read; a job stored without data gets
 * `null`). The `_v` is the highest among the job itself and the task's
 * newest jobs (see `TRIGGER_DISPATCH`): the job's own `_v` is a floor, a
 * newer job of a later version wins. `JOB_NOT_FOUND` when its hash is gone;
 * `VERSION_UNKNOWN` when no job says a version.
 */
export async function rerunJob(
  connection: RedisConnection,
  task: string,
  jobId: string,
  prefix?: string,
): Promise<RerunResult> {
  const jobKey = `${taskKeys(task, prefix).jobPrefix}${jobId}`;
  const [exists, data] = await connection.pipeline([
    ["EXISTS", jobKey],
    ["HGET", jobKey, "data"],
  ]) as [number, string | null];
  if (exists === 0) throw jobNotFound(jobId);
  const newId = crypto.randomUUID();
  const [outcome, version] = await dispatchAsTask(connection, {
    task,
    jobId: newId,
    data: data ?? "null",
    lastJobId: jobId,
  }, prefix);
  if (outcome !== 1) throw versionUnknown(`Job ${jobId} was not run again`, task);
  return { jobId: newId, task, version, versionFrom: "recent-jobs", expireAtFrom: "not-set" };
}
