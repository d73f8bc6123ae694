/**
 * Schedules: `GET /schedules` and what their actions answer.
 *
 * @module
 */

import type { JobState } from "./states.ts";

/** A schedule as stored by taskora's scheduler. */
export interface ScheduleConfig {
  /** The task each run dispatches. */
  task: string;
  /** The data each run dispatches. */
  data?: unknown;
  /** Interval between runs (ms), when not cron. */
  every?: number;
  /** Cron expression, when not an interval. */
  cron?: string;
  /** Time zone of the cron expression. */
  timezone?: string;
  /** What to do with runs missed while no scheduler ran. */
  onMissed?: string;
  /** Whether a run may start while the last one is still going. */
  overlap?: boolean;
}

/** A schedule with its run bookkeeping: one item of `GET /schedules`. */
export interface ScheduleRecord {
  /** The schedule's name. */
  name: string;
  /** How it runs. */
  config: ScheduleConfig;
  /** Next run (ms), or null when paused. */
  nextRun: number | null;
  /** When it last ran (ms). */
  lastRun: number | null;
  /** The job its last run dispatched. */
  lastJobId: string | null;
  /** State of the last run's job, or null when it has none or the job is gone. */
  lastRunStatus: JobState | null;
  /**
   * When a finished `lastRunStatus` was read (ms): a source may trust one a
   * while (Redis: a minute) rather than read it for each answer. Absent
   * where the source reads it for each answer.
   */
  lastRunStatusAt?: number;
  /** Paused schedules have no next run. */
  paused: boolean;
  /**
   * Declared in the App's code (known only with the App): every worker
   * start registers it again, undoing changes made here.
   */
  declaredInCode?: boolean;
}

/** A run of a schedule, as the store keeps it. */
export interface BoardRunRecord {
  /** The job the run was dispatched as (a job of the schedule's task). */
  jobId: string;
  /** When it was dispatched (ms): the board's clock, or the schedule's `lastRun`. */
  at: number;
  /**
   * Who made it: the board ("Run now") or taskora's scheduler (noted from
   * the schedule's `lastJobId` when a board reads its schedules); records
   * kept before the scheduler's runs were noted are the board's.
   */
  by: "board" | "scheduler";
}

/** A run the board dispatched, with its job's state now. */
export interface BoardRun extends BoardRunRecord {
  /** The job's state now, or null when it is gone from the store. */
  state: JobState | null;
  /**
   * When a finished `state` was read (ms): a source may trust one a while
   * (Redis: a minute). Absent where the source reads it for each answer.
   */
  stateAt?: number;
}

/**
 * How many of the runs the board dispatched are kept per schedule, newest
 * first: taskora itself keeps only a schedule's last run (`lastRun`,
 * `lastJobId`).
 */
export const BOARD_RUNS_KEPT = 10;

/**
 * How many runs, the board's and the scheduler's, the store keeps per
 * schedule, newest first: `GET /schedules/{name}/runs` pages through them.
 */
export const SCHEDULE_RUNS_KEPT = 100;

/**
 * A kept run's outcome: its job's state while taskora holds the job, else
 * the state the history recorded (`archived`), else `unknown`.
 */
export interface ScheduleRun extends BoardRunRecord {
  /** The job's state, or `unknown` when neither taskora nor the history holds it. */
  state: JobState | "unknown";
  /** Whether the state is the history's: taskora no longer holds the job. */
  archived: boolean;
}

/** One page of a schedule's runs, newest first. */
export interface ScheduleRunsPage {
  /** The runs from `offset` on, at most `limit`. */
  runs: ScheduleRun[];
  /** How many runs are kept, at most {@link SCHEDULE_RUNS_KEPT}. */
  total: number;
}

/** How many upcoming runs `GET /schedules` lists per schedule. */
export const UPCOMING_RUNS = 5;

/** A schedule as `GET /schedules` answers it: the record, in words, with its runs ahead. */
export interface ScheduleView extends ScheduleRecord {
  /**
   * How it runs in words, a cron's hours in its own time zone, named:
   * `At 04:30 (Europe/Berlin)`, `Every 30 seconds`; null when the stored
   * timing does not read.
   */
  description: string | null;
  /** The next {@link UPCOMING_RUNS} runs (ms), from `nextRun` on; none while paused. */
  upcomingRuns: number[];
  /**
   * The runs this board (any replica) dispatched, newest first, at most
   * {@link BOARD_RUNS_KEPT}; empty where the source reads no job states.
   */
  boardRuns: BoardRun[];
}

/** The answer of pausing, resuming or changing a schedule: the schedule as it is now. */
export interface ScheduleActionResponse {
  /** Always true: a refused action is an error answer. */
  ok: true;
  /** The schedule after the change. */
  schedule: ScheduleView;
}

/** What triggering a schedule did. */
export interface TriggerResult {
  /** The job the run was dispatched as. */
  jobId: string;
  /**
   * False when a trigger with the same idempotency key had already
   * dispatched it: nothing new was dispatched.
   */
  created: boolean;
  /** The `_v` the new job was stamped with (absent when nothing was dispatched). */
  version?: number;
  /**
   * Where that version came from: `app`, the taskora App's task (exact);
   * `recent-jobs`, the highest `_v` among the task's jobs in the store (the
   * board runs without the App and cannot know better).
   */
  versionFrom?: "app" | "recent-jobs";
  /**
   * Whether the new job carries the task's TTL (`expireAt`), absent when
   * nothing was dispatched: `app`, dispatched through the taskora App, which
   * sets it as the task's `ttl` says; `not-set`, written by the board
   * without the App, which cannot know the task's TTL: the job has no
   * `expireAt` and never expires.
   */
  expireAtFrom?: "app" | "not-set";
}

/** The answer of `POST /schedules/{name}/trigger`. */
export interface TriggerResponse extends TriggerResult {
  /** Always true: a refused action is an error answer. */
  ok: true;
}

/** The answer of `DELETE /schedules/{name}`. */
export interface ScheduleRemoveResponse {
  /** Always true: a refused action is an error answer. */
  ok: true;
  /** The schedule that was deleted. */
  name: string;
}
