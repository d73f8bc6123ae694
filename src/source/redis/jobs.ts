/**
 * Reading jobs: a page of a task's jobs in one state, one job by id, and a
 * page of one job's log.
 *
 * @module
 */

import { eventsTrimmedBefore } from "../trimmed_events.ts";
import { decodeStreamEnds, streamEndsCommand } from "./stream_ends.ts";
import {
  JOB_DETAIL_LOGS,
  type JobDetail,
  type JobPage,
  type JobRow,
  type JobState,
  type LogEntry,
  type LogPage,
} from "../types.ts";
import { decodeJob, decodeLogs, decodeRow } from "../wire/decode.ts";
import { taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";
import { locateJob } from "./locate.ts";
import { CHUNK_SIZE, DELAYED_PAGE, JOB_PAGE } from "./scripts.ts";

/** A `skip` no walk of a delayed set can spend: every member passed over is counted, none returned. */
const PASS_ALL = 1e12;

/**
 * How many members of a task's delayed set are in `state` (delayed or
 * retrying) now, exactly: the whole set walked, {@link CHUNK_SIZE} members
 * a call, each wanted member passed over as the page script's `skip`, so
 * no row comes back. For a bulk action's dry run, where the kept split's
 * figure may lag.
 */
export async function countDelayedState(
  connection: RedisConnection,
  task: string,
  state: "delayed" | "retrying",
  prefix?: string,
): Promise<number> {
  const keys = taskKeys(task, prefix);
  let count = 0;
  let next = 0;
  do {
    const [again, skipLeft] = await connection.call<[number, number]>({
      script: DELAYED_PAGE,
      keys: [keys.delayed],
      args: [keys.jobPrefix, state, next, CHUNK_SIZE, PASS_ALL, 1],
    });
    count += PASS_ALL - skipLeft;
    next = again;
  } while (next !== -1);
  return count;
}

/** Turns a flat `[field, value, ...]` reply (HGETALL) into a record. */
export function fieldsOf(flat: readonly string[]): Record<string, string> {
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
  return fields;
}

/** A `{id, score, fields}` entry as the page scripts return it. */
type ScriptEntry = [string, string, string[]];

function decodeEntries(task: string, state: JobState, entries: ScriptEntry[]): JobRow[] {
  const jobs: JobRow[] = [];
  for (const [id, score, flat] of entries) {
    // An id whose hash is gone (trimmed or deleted) is not shown.
    if (flat.length === 0) continue;
    const fields = fieldsOf(flat);
    fields.state ??= state;
    const runAt = state === "delayed" || state === "retrying" ? Number(score) : null;
    jobs.push(decodeRow(task, id, fields, runAt));
  }
  return jobs;
}

const PAGE_MODE: Record<Exclude<JobState, "delayed" | "retrying">, {
  mode: "waiting" | "list" | "newest";
  key: "wait" | "active" | "completed" | "failed" | "cancelled" | "expired";
}> = {
  waiting: { mode: "waiting", key: "wait" },
  active: { mode: "list", key: "active" },
  completed: { mode: "newest", key: "completed" },
  failed: { mode: "newest", key: "failed" },
  cancelled: { mode: "newest", key: "cancelled" },
  expired: { mode: "newest", key: "expired" },
};

/**
 * One page of a task's jobs in a state, with the size of the whole list.
 *
 * - waiting, active, completed, failed, cancelled, expired: one script call,
 *   one round trip, O(limit) (plus O(log N) for sorted sets). Waiting is in
 *   run order: the wait list from its tail, then the prioritized set.
 *   Finished sets are newest first.
 * - delayed, retrying: see {@link listDelayedJobs}.
 */
export async function listJobs(
  connection: RedisConnection,
  task: string,
  state: JobState,
  offset: number,
  limit: number,
  prefix?: string,
  retrying = 0,
): Promise<JobPage> {
  if (state === "delayed" || state === "retrying") {
    return await listDelayedJobs(connection, task, state, offset, limit, prefix, retrying);
  }
  const keys = taskKeys(task, prefix);
  const { mode, key } = PAGE_MODE[state];
  const [total, ...entries] = await connection.call<[number, ...ScriptEntry[]]>({
    script: JOB_PAGE,
    keys: [keys[key], keys.prioritized],
    args: [keys.jobPrefix, mode, offset, limit],
  });
  return { jobs: decodeEntries(task, state, entries), total };
}

/**
 * A page of delayed or retrying jobs. Both share the delayed set, so the set
 * is walked in run-at order, 1,000 members per script call, keeping the
 * members whose hash state matches: the page is exact. Cost: ZCARD and the
 * first call in one round trip, then ceil((members before the page's end) /
 * 1,000) more — cheap near the start, linear for deep pages. The total is
 * the caller's kept `retrying` figure (clamped to the set), or the rest of
 * the set for `delayed`, as the task's counts say it: no request reads the
 * whole set to count it.
 */
export async function listDelayedJobs(
  connection: RedisConnection,
  task: string,
  state: "delayed" | "retrying",
  offset: number,
  limit: number,
  prefix?: string,
  retrying = 0,
): Promise<JobPage> {
  const keys = taskKeys(task, prefix);
  const pageCall = (start: number, skip: number, want: number): Command => ({
    script: DELAYED_PAGE,
    keys: [keys.delayed],
    args: [keys.jobPrefix, state, start, CHUNK_SIZE, skip, want],
  });

  const [size, firstPage] = await connection.pipeline([
    ["ZCARD", keys.delayed],
    pageCall(0, offset, limit),
  ]) as [number, [number, number, ...ScriptEntry[]]];

  const walk = async (): Promise<ScriptEntry[]> => {
    let [next, skip, ...found] = firstPage;
    while (next !== -1 && found.length < limit) {
      const [again, skipLeft, ...more] = await connection.call<[number, number, ...ScriptEntry[]]>(
        pageCall(next, skip, limit - found.length),
      );
      [next, skip] = [again, skipLeft];
      found = [...found, ...more];
    }
    return found;
  };

  const entries = await walk();
  const kept = Math.max(0, Math.min(retrying, size));
  const total = state === "retrying" ? kept : size - kept;
  return { jobs: decodeEntries(task, state, entries), total };
}

/**
 * A job by id, or null when no task has it. Two round trips whatever its
 * log's size: {@link locateJob} probes every task for the hash (one command
 * per task), then one pipeline reads that task's HGETALL of the hash, ZSCORE
 * in the delayed set, and LRANGE of the newest {@link JOB_DETAIL_LOGS} log
 * entries plus LLEN of its log.
 */
export async function getJob(
  connection: RedisConnection,
  tasks: readonly string[],
  jobId: string,
  prefix?: string,
): Promise<JobDetail | null> {
  const task = await locateJob(connection, tasks, jobId, prefix, "hash");
  if (task === null) return null;
  const keys = taskKeys(task, prefix);
  const jobKey = `${keys.jobPrefix}${jobId}`;
  // Settled: the log key may be of another type, which reads as no log.
  const [hash, score, logs, count, ends] = await connection.pipelineSettled([
    ["HGETALL", jobKey],
    ["ZSCORE", keys.delayed, jobId],
    ["LRANGE", `${jobKey}:logs`, String(-JOB_DETAIL_LOGS), "-1"],
    ["LLEN", `${jobKey}:logs`],
    streamEndsCommand(keys.events),
  ]);
  // Gone between the probe and the read (removed or trimmed meanwhile).
  if (!Array.isArray(hash) || hash.length === 0) return null;
  const fields = fieldsOf(hash as string[]);
  const waitsToRun = fields.state === "delayed" || fields.state === "retrying";
  const runAt = waitsToRun && typeof score === "string" ? Number(score) : null;
  const job = decodeJob(task, jobId, fields, runAt);
  const trimmed = eventsTrimmedBefore(jobId, job.createdAt, decodeStreamEnds(ends));
  return { ...job, ...logPageOf(logs, count), eventsTrimmedBefore: trimmed };
}

/** A log page from LRANGE and LLEN replies (a key of another type reads as no log). */
function logPageOf(entries: unknown, count: unknown): { logs: LogEntry[]; logCount: number } {
  return {
    logs: Array.isArray(entries) ? decodeLogs(entries as string[]) : [],
    logCount: typeof count === "number" ? count : 0,
  };
}

/**
 * Entries `offset` to `offset + limit - 1` of a job's log, oldest first, and
 * its length, so O(limit) whatever the log's size. Two round trips:
 * {@link locateJob} probes every task for the hash, then LRANGE and LLEN of
 * that task's log. Null when no task holds a job hash with the id.
 */
export async function getJobLogs(
  connection: RedisConnection,
  tasks: readonly string[],
  jobId: string,
  offset: number,
  limit: number,
  prefix?: string,
): Promise<LogPage | null> {
  const task = await locateJob(connection, tasks, jobId, prefix, "hash");
  if (task === null) return null;
  const logKey = `${taskKeys(task, prefix).jobPrefix}${jobId}:logs`;
  const [entries, count] = await connection.pipelineSettled([
    ["LRANGE", logKey, String(offset), String(offset + limit - 1)],
    ["LLEN", logKey],
  ]);
  const { logs, logCount } = logPageOf(entries, count);
  return { logs, total: logCount };
}
