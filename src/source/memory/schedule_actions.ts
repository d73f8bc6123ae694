/**
 * What the board's schedule buttons do to a memory store, with the rules of
 * taskora's schedule manager: pause (no next run), resume (next run computed
 * from now), trigger (one dispatch now, the next run and the last-run
 * bookkeeping untouched), update, remove.
 *
 * A schedule is kept as taskora keeps it: its stored JSON (config plus
 * `lastRun` / `lastJobId`) and its next run (null when paused).
 *
 * @module
 */

import { invalidParam } from "../../errors.ts";
import { assertValidCron, nextRunOf } from "../schedule_time.ts";
import type { ScheduleConfig, SchedulePatch, TriggerResult } from "../types.ts";
import type { MemoryStore, StoredJob, StoredSchedule } from "./store.ts";
import { scheduleNotFound } from "../refusals.ts";

/** A schedule's stored JSON, parsed. */
interface StoredConfig extends ScheduleConfig {
  lastRun?: number | null;
  lastJobId?: string | null;
  [field: string]: unknown;
}

const ON_MISSED = /^(skip|catch-up|catch-up-limit:\d+)$/;

function load(
  store: MemoryStore,
  name: string,
): { schedule: StoredSchedule; config: StoredConfig } {
  const schedule = store.schedules.get(name);
  if (!schedule) throw scheduleNotFound(name);
  return { schedule, config: JSON.parse(schedule.json) as StoredConfig };
}

/** Pauses a schedule: it keeps its config but has no next run. */
export function pauseSchedule(store: MemoryStore, name: string): void {
  load(store, name).schedule.nextRun = null;
}

/**
 * Resumes a schedule: its next run is computed from now, as taskora's
 * `resume` does (also for a schedule that was not paused).
 */
export function resumeSchedule(store: MemoryStore, name: string): void {
  const { schedule, config } = load(store, name);
  schedule.nextRun = nextRunOf(config, store.now());
}

/**
 * What a dispatch of the task carries today, read off its jobs (the store
 * holds the task's definition nowhere else): the highest `_v`, and the
 * `maxAttempts` of the newest job of that version. `_v` 1 and one attempt
 * when the task has no jobs.
 */
function currentDispatch(
  store: MemoryStore,
  task: string,
): { version: number; maxAttempts: number } {
  let newest: StoredJob | null = null;
  for (const job of store.tasks.get(task)?.jobs.values() ?? []) {
    if (
      newest === null || job.version > newest.version ||
      (job.version === newest.version && job.createdAt > newest.createdAt)
    ) newest = job;
  }
  return { version: newest?.version ?? 1, maxAttempts: newest?.maxAttempts ?? 1 };
}

/**
 * Dispatches one job of the schedule's task with the schedule's data and the
 * task's current version and attempts, like taskora's `schedules.trigger`:
 * a plain dispatch that leaves the next run
 * and `lastRun` / `lastJobId` as they were (only the scheduler's own runs
 * record those). When the task already holds a job `jobId` (derived from an
 * idempotency key by `trigger_id.ts`), nothing is dispatched, as the Redis
 * source's script does.
 */
export function triggerSchedule(store: MemoryStore, name: string, jobId: string): TriggerResult {
  const { config } = load(store, name);
  if (store.tasks.get(config.task)?.jobs.has(jobId)) return { jobId, created: false };
  store.enqueue(config.task, {
    id: jobId,
    data: config.data !== undefined ? config.data : null,
    ...currentDispatch(store, config.task),
  });
  return { jobId, created: true };
}

function checkPatch(patch: SchedulePatch): void {
  if (patch.cron !== undefined && patch.every !== undefined) {
    throw invalidParam("schedule", "give either cron or every, not both");
  }
  if (patch.every !== undefined && !(Number.isSafeInteger(patch.every) && patch.every > 0)) {
    throw invalidParam("every", "must be a whole number of milliseconds above 0");
  }
  if (patch.cron !== undefined && typeof patch.cron !== "string") {
    throw invalidParam("cron", "must be a cron expression");
  }
  if (
    patch.timezone !== undefined && patch.timezone !== null && typeof patch.timezone !== "string"
  ) {
    throw invalidParam("timezone", "must be an IANA time zone name or null");
  }
  if (patch.onMissed !== undefined && !ON_MISSED.test(String(patch.onMissed))) {
    throw invalidParam("onMissed", "must be skip, catch-up or catch-up-limit:<n>");
  }
  if (patch.overlap !== undefined && typeof patch.overlap !== "boolean") {
    throw invalidParam("overlap", "must be true or false");
  }
}

/**
 * Changes a schedule as taskora's `schedules.update` does: `every` replaces
 * `cron` (and drops its time zone), `cron` replaces `every`, a null time zone
 * removes it, the other fields overwrite. The next run is recomputed from now
 * unless the schedule is paused, which it stays.
 *
 * @throws {BoardError} `INVALID_PARAM` for an invalid cron expression or
 * time zone, an interval that is not a positive whole number, both `cron`
 * and `every`, or a time zone on an interval schedule.
 */
export function updateSchedule(store: MemoryStore, name: string, patch: SchedulePatch): void {
  const { schedule, config } = load(store, name);
  checkPatch(patch);
  if (patch.every !== undefined) {
    config.every = patch.every;
    delete config.cron;
    delete config.timezone;
  }
  if (patch.cron !== undefined) {
    config.cron = patch.cron;
    delete config.every;
  }
  if (patch.timezone === null) delete config.timezone;
  else if (patch.timezone !== undefined) config.timezone = patch.timezone;
  if (patch.data !== undefined) config.data = patch.data;
  if (patch.onMissed !== undefined) config.onMissed = patch.onMissed;
  if (patch.overlap !== undefined) config.overlap = patch.overlap;

  if (config.cron !== undefined) assertValidCron(config.cron, config.timezone);
  else if (config.timezone !== undefined) {
    throw invalidParam("timezone", "only applies to cron schedules");
  } else if (typeof config.every !== "number") {
    throw invalidParam("schedule", "needs either every or cron");
  }
  const nextRun = schedule.nextRun === null ? null : nextRunOf(config, store.now());
  schedule.json = JSON.stringify(config);
  schedule.nextRun = nextRun;
}

/** Deletes a schedule (its config and its next run). */
export function removeSchedule(store: MemoryStore, name: string): void {
  load(store, name);
  store.schedules.delete(name);
}
