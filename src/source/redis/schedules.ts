/**
 * Reading taskora's schedules with the state of each one's last run.
 *
 * @module
 */

import type { JobState, ScheduleRecord } from "../types.ts";
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

/**
 * Every schedule, sorted by name. One round trip: HGETALL of the schedules
 * hash + ZRANGE WITHSCORES of the next-run set; then, for the last jobs
 * whose state is not known finished (`finished`), one pipeline of
 * `HGET <job> state` (each in its task's slot).
 */
export async function listSchedules(
  connection: RedisConnection,
  finished: FinishedStates,
  prefix?: string,
): Promise<ScheduleRecord[]> {
  const keys = globalKeys(prefix);
  const [hash, next] = (await connection.pipeline([
    ["HGETALL", keys.schedules],
    ["ZRANGE", keys.schedulesNext, "0", "-1", "WITHSCORES"],
  ])) as [string[], string[]];
  const configs = fieldsOf(hash);
  const nextRuns = new Map<string, number>();
  for (let i = 0; i + 1 < next.length; i += 2) nextRuns.set(next[i], Number(next[i + 1]));

  const names = Object.keys(configs).sort();
  const lookups = names.map((name) => {
    const jobId = scheduleLastJobId(configs[name]);
    const task = taskOf(configs[name]);
    return jobId && task ? { name, key: `${taskKeys(task, prefix).jobPrefix}${jobId}` } : null;
  });
  const wanted = lookups.filter((l) => l !== null);
  const states = await readJobStates(connection, wanted.map((l) => l.key), finished);
  const lastState = new Map(wanted.map((l, i) => [l.name, states[i]]));
  // A finished state may be up to a minute old: the answer says when it was read.
  const readAt = new Map(wanted.map((l) => [l.name, finished.readAt(l.key)]));

  return names.map((name) => {
    const schedule = decodeSchedule(
      name,
      configs[name],
      nextRuns.get(name) ?? null,
      lastState.get(name) ?? null,
    );
    const at = readAt.get(name);
    return at === undefined ? schedule : { ...schedule, lastRunStatusAt: at };
  });
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
