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

import { applySchedulePatch } from "../schedule_patch.ts";
import { nextRunOf } from "../schedule_time.ts";
import type { ScheduleConfig, SchedulePatch, TriggerResult } from "../types.ts";
import type { MemoryStore, StoredJob, StoredSchedule } from "./store.ts";
import { scheduleNotFound, versionUnknown } from "../refusals.ts";

/** A schedule's stored JSON, parsed. */
interface StoredConfig extends ScheduleConfig {
  lastRun?: number | null;
  lastJobId?: string | null;
  [field: string]: unknown;
}

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
 * `maxAttempts` of the newest job of that version. `VERSION_UNKNOWN` when
 * the task has no jobs (as the Redis source's script refuses), saying what
 * was `refused`.
 */
export function currentDispatch(
  store: MemoryStore,
  refused: string,
  task: string,
): { version: number; maxAttempts: number } {
  let newest: StoredJob | null = null;
  for (const job of store.tasks.get(task)?.jobs.values() ?? []) {
    if (
      newest === null || job.version > newest.version ||
      (job.version === newest.version && job.createdAt > newest.createdAt)
    ) newest = job;
  }
  if (newest === null) throw versionUnknown(refused, task);
  return { version: newest.version, maxAttempts: newest.maxAttempts };
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
  const dispatch = currentDispatch(store, `Schedule "${name}" was not triggered`, config.task);
  store.enqueue(config.task, {
    id: jobId,
    data: config.data !== undefined ? config.data : null,
    ...dispatch,
  });
  return {
    jobId,
    created: true,
    version: dispatch.version,
    versionFrom: "recent-jobs",
    expireAtFrom: "not-set",
  };
}

/**
 * Changes a schedule as taskora's `schedules.update` does (see
 * `schedule_patch.ts`, whose rules it is checked by). The next run is
 * recomputed from now unless the schedule is paused, which it stays.
 *
 * @throws {BoardError} `INVALID_PARAM` for a patch those rules refuse.
 */
export function updateSchedule(store: MemoryStore, name: string, patch: SchedulePatch): void {
  const { schedule, config } = load(store, name);
  const merged = applySchedulePatch(config, patch) as StoredConfig;
  schedule.nextRun = schedule.nextRun === null ? null : nextRunOf(merged, store.now());
  schedule.json = JSON.stringify(merged);
}

/** Deletes a schedule (its config and its next run). */
export function removeSchedule(store: MemoryStore, name: string): void {
  load(store, name);
  store.schedules.delete(name);
}
