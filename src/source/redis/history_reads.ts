/**
 * The history recorder's read of taskora's keyspace: each ending job's
 * fields and the sizes of its input and result (`data` and `result`
 * themselves only when payloads are kept). One read-only script per task of
 * a batch (its jobs share the task's slot), so a batch costs at most one
 * command per job and usually one per task.
 *
 * @module
 */

import { type JobFields, type JobRef, RECORDED_FIELDS } from "../../history/recorder.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { CHUNK_SIZE, type LuaScript } from "./scripts.ts";

/** Per job hash (KEYS): HMGET of the ARGV fields, then HSTRLEN of `data` and of `result`. */
const READ_RECORDED: LuaScript = {
  name: "history-read-jobs",
  source: `
local out = {}
for i, key in ipairs(KEYS) do
  local values = redis.call('HMGET', key, unpack(ARGV))
  values[#ARGV + 1] = redis.call('HSTRLEN', key, 'data')
  values[#ARGV + 2] = redis.call('HSTRLEN', key, 'result')
  out[i] = values
end
return out
`,
};

/** Reads each job's recorded fields and sizes; null for a job taskora no longer holds. */
export async function readRecordedFields(
  connection: RedisConnection,
  jobs: readonly JobRef[],
  payloads: boolean,
  prefix?: string,
): Promise<(JobFields | null)[]> {
  const fields: readonly string[] = payloads
    ? [...RECORDED_FIELDS, "data", "result"]
    : RECORDED_FIELDS;
  const calls: { at: number[]; keys: string[] }[] = [];
  const byTask = new Map<string, { at: number[]; keys: string[] }>();
  jobs.forEach(({ task, jobId }, at) => {
    let call = byTask.get(task);
    if (!call || call.keys.length === CHUNK_SIZE) {
      byTask.set(task, call = { at: [], keys: [] });
      calls.push(call);
    }
    call.at.push(at);
    call.keys.push(`${taskKeys(task, prefix).jobPrefix}${jobId}`);
  });
  const replies = await connection.pipeline(
    calls.map(({ keys }) => ({ script: READ_RECORDED, keys, args: [...fields] })),
  );
  const read: (JobFields | null)[] = jobs.map(() => null);
  calls.forEach((call, c) => {
    (replies[c] as (string | number | null)[][]).forEach((values, i) => {
      if (values.slice(0, fields.length).every((value) => value === null)) return;
      const job: Record<string, string> = {};
      fields.forEach((name, f) => {
        if (values[f] !== null) job[name] = String(values[f]);
      });
      job.dataBytes = String(values[fields.length]);
      job.resultBytes = String(values[fields.length + 1]);
      read[call.at[i]] = job as JobFields;
    });
  });
  return read;
}
