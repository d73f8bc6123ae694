/**
 * Reading taskora's schedules with the state of each one's last run.
 *
 * @module
 */

import type { JobState, ScheduleRecord } from "../types.ts";
import { sameItems } from "../../same_items.ts";
import { decodeSchedule, decodeValue, scheduleLastJobId } from "../wire/decode.ts";
import { globalKeys, taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { fieldsOf } from "./jobs.ts";
import { asState, type FinishedStates, readJobStates } from "./job_state_reads.ts";

function taskOf(json: string): string | null {
  const stored = decodeValue(json);
  if (stored === null || typeof stored !== "object") return null;
  const task = (stored as Record<string, unknown>).task;
  return typeof task === "string" ? task : null;
}

/** One schedule as the last list read it: what its record was built from, and the record. */
interface ReadSchedule {
  /** Its stored JSON. */
  json: string;
  /** The hash key of its last run's job, or null. */
  jobKey: string | null;
  /** Its place in the next-run set. */
  nextRun: number | null;
  /** Its last job's state, and when that was read when it is a kept finished one. */
  lastRunStatus: JobState | null;
  readAt: number | undefined;
  record: ScheduleRecord;
}

/** What the last list read and answered, whole. */
interface LastList {
  /** Its replies: the schedules hash's fields and values, the next-run set's members and scores. */
  hash: readonly string[];
  next: readonly string[];
  /** The schedules' names, sorted, and the hash key of each one's last job (null: none). */
  names: readonly string[];
  jobKeys: readonly (string | null)[];
  /** The hash keys of the last jobs it read the states of, and what it read. */
  wanted: readonly string[];
  states: readonly (JobState | null)[];
  readAts: readonly (number | undefined)[];
  /** What it answered (frozen). */
  records: ScheduleRecord[];
}

/**
 * The schedules the last list read, by name: a schedule whose stored JSON,
 * next run and last job's state are the same at the next list is not
 * decoded again, and is answered as the same record (so what is built from
 * a record, `GET /schedules`' answer, is built once per change of it).
 * Holds the schedules of the last list only, and its replies: a list whose
 * replies and last jobs' states are the last list's is answered as its
 * records without looking at any schedule.
 */
export class ScheduleReads {
  kept = new Map<string, ReadSchedule>();
  last: LastList | null = null;
}

/** The hash key of the last run's job a schedule's stored JSON names, or null. */
function lastJobKey(json: string, prefix?: string): string | null {
  const jobId = scheduleLastJobId(json);
  const task = taskOf(json);
  return jobId && task ? `${taskKeys(task, prefix).jobPrefix}${jobId}` : null;
}

/**
 * Every schedule, sorted by name. HGETALL of the schedules hash + ZRANGE
 * WITHSCORES of the next-run set, read through the tracking connection
 * (`tracked_fields.ts`): one round trip, none while Redis has not
 * invalidated either key since (the caller forgets them after its own
 * writes, {@link forgetScheduleReads}); then, for the last jobs
 * whose state is not known finished (`finished`), one pipeline of
 * `HGET <job> state` (each in its task's slot). A schedule unchanged since
 * the list `reads` holds is answered as the record that list made: the
 * records are shared, never changed in place. When both replies and the
 * last jobs' states are that list's, the list is answered as it was (the
 * same frozen array), no schedule looked at: the list asked every few
 * seconds is mostly unchanged.
 */
export async function listSchedules(
  connection: RedisConnection,
  finished: FinishedStates,
  reads: ScheduleReads,
  prefix?: string,
): Promise<ScheduleRecord[]> {
  const keys = globalKeys(prefix);
  // Tracked: answered from the cache, no round trip, until a schedule is added, changed or fired.
  const [hash, next] = (await Promise.all([
    connection.trackedRead(["HGETALL", keys.schedules]),
    connection.trackedRead(["ZRANGE", keys.schedulesNext, "0", "-1", "WITHSCORES"]),
  ])) as [string[], string[]];
  // The same replies as the last list's name the same last jobs: only their states may have moved.
  const last = reads.last;
  const sameReplies = last !== null && sameItems(hash, last.hash) && sameItems(next, last.next);
  const configs = sameReplies ? null : fieldsOf(hash);
  const names = sameReplies ? last.names : Object.keys(configs!).sort();
  const jobKeys = sameReplies ? last.jobKeys : names.map((name) => {
    const read = reads.kept.get(name);
    return read?.json === configs![name] ? read.jobKey : lastJobKey(configs![name], prefix);
  });
  const wanted = sameReplies ? last.wanted : jobKeys.filter((key) => key !== null);
  const states = await readJobStates(connection, wanted, finished);
  // A finished state may be up to a minute old: the answer says when it was read.
  const readAts = wanted.map((key) => finished.readAt(key));
  if (sameReplies && sameItems(states, last.states) && sameItems(readAts, last.readAts)) {
    return last.records;
  }
  const jsonOf = configs ?? fieldsOf(hash);
  const nextRuns = new Map<string, number>();
  for (let i = 0; i + 1 < next.length; i += 2) nextRuns.set(next[i], Number(next[i + 1]));
  const lastState = new Map(wanted.map((key, i) => [key, states[i]]));

  const kept = new Map<string, ReadSchedule>();
  const records = names.map((name, i) => {
    const json = jsonOf[name];
    const jobKey = jobKeys[i];
    const nextRun = nextRuns.get(name) ?? null;
    const lastRunStatus = jobKey === null ? null : lastState.get(jobKey)!;
    const readAt = jobKey === null ? undefined : finished.readAt(jobKey);
    const read = reads.kept.get(name);
    const same = read !== undefined && read.json === json && read.nextRun === nextRun &&
      read.lastRunStatus === lastRunStatus && read.readAt === readAt;
    const record = same ? read.record : recordOf(name, json, nextRun, lastRunStatus, readAt);
    kept.set(name, { json, jobKey, nextRun, lastRunStatus, readAt, record });
    return record;
  });
  reads.kept = kept;
  // Answered again while nothing changed: shared, so frozen (a caller sorting it in place throws).
  Object.freeze(records);
  reads.last = { hash, next, names, jobKeys, wanted, states, readAts, records };
  return records;
}

/**
 * Drops the tracking cache's reads of the schedules hash and the next-run
 * set after a write of this board's: its next list reads them again, not
 * waiting for Redis's invalidation.
 */
export function forgetScheduleReads(connection: RedisConnection, prefix?: string): void {
  const keys = globalKeys(prefix);
  connection.forgetTracked(keys.schedules);
  connection.forgetTracked(keys.schedulesNext);
}

/** A schedule's record from what was read of it. */
function recordOf(
  name: string,
  json: string,
  nextRun: number | null,
  lastRunStatus: JobState | null,
  readAt: number | undefined,
): ScheduleRecord {
  const schedule = decodeSchedule(name, json, nextRun, lastRunStatus);
  return readAt === undefined ? schedule : { ...schedule, lastRunStatusAt: readAt };
}

/**
 * One schedule by name, or null. Two round trips: HGET of its JSON + ZSCORE
 * in the next-run set, then `HGET <job> state` of its last job.
 */
export async function getSchedule(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<ScheduleRecord | null> {
  const keys = globalKeys(prefix);
  const [json, score] = (await connection.pipeline([
    ["HGET", keys.schedules, name],
    ["ZSCORE", keys.schedulesNext, name],
  ])) as [string | null, string | null];
  if (json === null) return null;
  const jobId = scheduleLastJobId(json);
  const task = taskOf(json);
  let lastState: JobState | null = null;
  if (jobId && task) {
    const [state] = await connection.pipelineSettled([
      ["HGET", `${taskKeys(task, prefix).jobPrefix}${jobId}`, "state"],
    ]);
    lastState = asState(state);
  }
  return decodeSchedule(name, json, score === null ? null : Number(score), lastState);
}
