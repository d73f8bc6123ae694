/**
 * The history recorder's read of taskora's keyspace: one HMGET of each
 * ending job's fields (with `data` and `result` only when payloads are
 * kept), all in one pipeline, each on its task's slot.
 *
 * @module
 */

import { type JobFields, type JobRef, RECORDED_FIELDS } from "../../history/recorder.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";

/** Reads each job's recorded fields; null for a job taskora no longer holds. */
export async function readRecordedFields(
  connection: RedisConnection,
  jobs: readonly JobRef[],
  payloads: boolean,
  prefix?: string,
): Promise<(JobFields | null)[]> {
  const fields: readonly string[] = payloads
    ? [...RECORDED_FIELDS, "data", "result"]
    : RECORDED_FIELDS;
  const replies = await connection.pipeline(jobs.map(({ task, jobId }) => [
    "HMGET",
    `${taskKeys(task, prefix).jobPrefix}${jobId}`,
    ...fields,
  ]));
  return replies.map((reply) => {
    const values = reply as (string | null)[];
    if (values.every((value) => value === null)) return null;
    const job: Record<string, string> = {};
    fields.forEach((name, i) => {
      if (values[i] !== null) job[name] = values[i]!;
    });
    return job as JobFields;
  });
}
