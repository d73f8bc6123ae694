/**
 * Steering taskora's schedules: pause, resume, trigger one run now, change,
 * remove. Schedules live in `<root>:schedules` (name → JSON) and
 * `<root>:schedules:next` (name → next run, absent when paused); both are
 * written the way taskora's scheduler and ScheduleManager write them.
 *
 * A change is read, merged here (cron-parser lives here, not in Lua), and
 * written by a compare-and-set script that refuses when the JSON changed in
 * between (e.g. the scheduler stored a new `lastRun`); the read is then
 * made again. So nothing the scheduler writes is lost by a board write.
 * The two keys share no hash tag (on Redis Cluster they live on different
 * slots), so the config and the next run are written by separate calls.
 * The one race left is taskora's own: while the scheduler is dispatching a
 * due run it holds the config in memory and writes it back afterwards.
 *
 * @module
 */

import { BoardError } from "../../errors.ts";
import { applySchedulePatch } from "../schedule_patch.ts";
import { nextRunOf } from "../schedule_time.ts";
import { triggerJobId } from "../trigger_id.ts";
import type { ScheduleConfig, SchedulePatch, ScheduleRecord, TriggerResult } from "../types.ts";
import { decodeSchedule, decodeValue } from "../wire/decode.ts";
import { globalKeys, taskKeys } from "../wire/keys.ts";
import {
  SCHEDULE_NEXT,
  SCHEDULE_REMOVE,
  SCHEDULE_WRITE,
  TRIGGER_DISPATCH,
} from "./action_scripts.ts";
import type { RedisConnection, ScriptCall } from "./client.ts";
import { getSchedule } from "./schedules.ts";
import { scheduleNotFound, versionUnknown } from "../refusals.ts";

/** Compare-and-set attempts before a change gives up. */
const WRITE_ATTEMPTS = 5;

/** Newest members per structure looked at for the task's version. */
const VERSION_SAMPLE = 20;

function notFound(name: string): BoardError {
  return scheduleNotFound(name);
}

/** Sets (`always`, or `XX`: only when it has one) or removes a schedule's next run. */
function setNextRun(
  name: string,
  mode: "remove" | "always" | "XX",
  nextRun: number,
  prefix?: string,
): ScriptCall {
  return {
    script: SCHEDULE_NEXT,
    keys: [globalKeys(prefix).schedulesNext],
    args: [name, mode, nextRun],
  };
}

async function readJson(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<string> {
  const json = await connection.call<string | null>(["HGET", globalKeys(prefix).schedules, name]);
  if (json === null) throw notFound(name);
  return json;
}

async function recordOf(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<ScheduleRecord> {
  const record = await getSchedule(connection, name, prefix);
  if (!record) throw notFound(name);
  return record;
}

/**
 * Reads a schedule, lets `change` compute its new JSON (or `""` to keep it)
 * and next run, writes the JSON with {@link SCHEDULE_WRITE} (reading again
 * when it changed in between), then the next run.
 */
async function writeSchedule(
  connection: RedisConnection,
  name: string,
  mode: "always" | "XX",
  change: (json: string) => { json: string; nextRun: number },
  prefix?: string,
): Promise<void> {
  for (let attempt = 0; attempt < WRITE_ATTEMPTS; attempt++) {
    const json = await readJson(connection, name, prefix);
    const next = change(json);
    const written = await connection.call<number>({
      script: SCHEDULE_WRITE,
      keys: [globalKeys(prefix).schedules],
      args: [name, json, next.json],
    });
    if (written === -1) throw notFound(name);
    if (written === 1) {
      await connection.call(setNextRun(name, mode, next.nextRun, prefix));
      return;
    }
  }
  throw new BoardError(
    "INVALID_STATE",
    `Schedule "${name}" kept changing while it was being written; try again`,
  );
}

/** Pauses a schedule: its next run is removed (the scheduler skips it). */
export async function pauseSchedule(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<ScheduleRecord> {
  const [found] = await connection.pipeline([
    ["HEXISTS", globalKeys(prefix).schedules, name],
    setNextRun(name, "remove", 0, prefix),
  ]);
  if (found === 0) throw notFound(name);
  return await recordOf(connection, name, prefix);
}

/**
 * Resumes a schedule: its next run is computed from now and set, as
 * taskora's ScheduleManager.resume does (also for one that was not paused).
 */
export async function resumeSchedule(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<ScheduleRecord> {
  await writeSchedule(connection, name, "always", (json) => ({
    json: "",
    nextRun: nextRunOf(decodeSchedule(name, json, null, null).config, Date.now()),
  }), prefix);
  return await recordOf(connection, name, prefix);
}

/**
 * Changes a schedule (see `schedule_patch.ts`) and recomputes its
 * next run from now, unless it is paused (then it stays paused; taskora's
 * ScheduleManager.update would resume it).
 */
export async function updateSchedule(
  connection: RedisConnection,
  name: string,
  patch: SchedulePatch,
  prefix?: string,
): Promise<ScheduleRecord> {
  await writeSchedule(connection, name, "XX", (json) => {
    const stored = decodeValue(json);
    const base = stored !== null && typeof stored === "object"
      ? stored as Record<string, unknown>
      : {};
    const merged = applySchedulePatch(base, patch);
    return {
      json: JSON.stringify(merged),
      nextRun: nextRunOf(merged as Pick<ScheduleConfig, "every" | "cron" | "timezone">, Date.now()),
    };
  }, prefix);
  return await recordOf(connection, name, prefix);
}

/** Deletes a schedule: its JSON and its next run. */
export async function removeSchedule(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<void> {
  const [removed] = await connection.pipeline([
    { script: SCHEDULE_REMOVE, keys: [globalKeys(prefix).schedules], args: [name] },
    setNextRun(name, "remove", 0, prefix),
  ]);
  if (removed === 0) throw notFound(name);
}

/**
 * One {@link TRIGGER_DISPATCH} call: a job `jobId` of `task` with the
 * serialized `data`, its `_v` learnt from `lastJobId` and the task's newest
 * jobs. Answers the script's `{ outcome, _v?, maxAttempts? }`.
 */
export async function dispatchAsTask(
  connection: RedisConnection,
  job: { task: string; jobId: string; data: string; lastJobId: string },
  prefix?: string,
): Promise<[number, ...number[]]> {
  const keys = taskKeys(job.task, prefix);
  return await connection.call<[number, ...number[]]>({
    script: TRIGGER_DISPATCH,
    keys: [
      keys.wait,
      keys.marker,
      keys.events,
      keys.active,
      keys.delayed,
      keys.completed,
      keys.failed,
      keys.cancelled,
    ],
    args: [keys.jobPrefix, job.jobId, job.data, Date.now(), job.lastJobId, VERSION_SAMPLE],
  });
}

/**
 * Dispatches one run of a schedule now, as taskora's ScheduleManager.trigger
 * does (`task.dispatch(config.data ?? null)`): one job of the schedule's
 * task, its data serialized with JSON (taskora's default serializer), in
 * one script on the task's slot ({@link TRIGGER_DISPATCH}, which also picks
 * the task's current `_v` and `maxAttempts`: the highest `_v` among its
 * jobs, said in the answer; with no job to learn it from, `VERSION_UNKNOWN`).
 * Like upstream, neither the next run nor `lastRun` / `lastJobId` change.
 * Unlike taskora's dispatch, no `expireAt` is written: the task's `ttl` is
 * the App's to know, and the answer says so (`expireAtFrom: "not-set"`).
 *
 * With an idempotency key the job id is derived from it
 * ({@link triggerJobId}); when that job exists already the script writes
 * nothing and its id comes back with `created: false`.
 */
export async function triggerSchedule(
  connection: RedisConnection,
  name: string,
  idempotencyKey?: string,
  prefix?: string,
): Promise<TriggerResult> {
  const jobId = await triggerJobId(name, idempotencyKey);
  const json = await readJson(connection, name, prefix);
  const record = decodeSchedule(name, json, null, null);
  if (record.config.task === "") {
    throw new BoardError("INVALID_STATE", `Schedule "${name}" names no task`);
  }
  const data = JSON.stringify(record.config.data !== undefined ? record.config.data : null);
  const [outcome, version] = await dispatchAsTask(connection, {
    task: record.config.task,
    jobId,
    data,
    lastJobId: record.lastJobId ?? "",
  }, prefix);
  if (outcome === 2) {
    throw versionUnknown(`Schedule "${name}" was not triggered`, record.config.task);
  }
  if (outcome === 0) return { jobId, created: false };
  return { jobId, created: true, version, versionFrom: "recent-jobs", expireAtFrom: "not-set" };
}
