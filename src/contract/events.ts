/**
 * The event stream (`GET /events`, server-sent events): the payload of each
 * `job:<kind>` event and of `stats:update`.
 *
 * @module
 */

import type { QueueStats } from "./states.ts";
import type { Totals } from "./totals.ts";

/** The job event kinds taskora writes to a task's event stream (`job:<kind>` on the wire). */
export const JOB_EVENT_KINDS = [
  "waiting",
  "delayed",
  "promoted",
  "active",
  "progress",
  "completed",
  "failed",
  "retrying",
  "stalled",
  "cancelled",
  "expired",
  "debounced",
  "collect",
] as const;

/**
 * The fields a worker writes on a job event besides its kind and its job,
 * decoded: numbers as numbers, JSON values parsed, text as written. A source
 * hands them over so; the event stream sends them formatted and redacted.
 */
export interface JobEventFields {
  /** The attempt the event is about (`active`, `failed`, `retrying`). */
  attempt?: number;
  /** How long the attempt ran, ms (`completed`). */
  duration?: number;
  /** When a retrying job runs again, ms (`retrying`). */
  nextAttemptAt?: number;
  /** What the job returned (`completed`). */
  result?: unknown;
  /** The progress reported (`progress`): a number or an object. */
  value?: unknown;
  /** The error message (`failed`, `retrying`). */
  error?: string;
  /** Why the job was cancelled (`cancelled`). */
  reason?: string;
  /** Any other field the worker wrote. */
  [field: string]: unknown;
}

/**
 * The payload of a `job:<kind>` event: the job, when the event was written,
 * and the other fields the worker wrote, formatted and redacted like the
 * REST API's values.
 */
export interface JobEventPayload extends JobEventFields {
  /** The job id. */
  id: string;
  /** The job's task. */
  task: string;
  /** When the event was written (ms). */
  at: number;
}

/** One task's counts in a `stats:update` event. */
export interface TaskCounts {
  /** The task name. */
  name: string;
  /** Its job counts. */
  stats: QueueStats;
  /**
   * Since when its `retrying` / `delayed` split is exact (ms): about `at`
   * when it is exact now, earlier when it is as of then, null when it was
   * never counted (retrying then counts only what the board saw since).
   */
  retryingAsOf: number | null;
}

/** The payload of a `stats:update` event. */
export interface StatsPayload {
  /** Every task's counts (all tasks, whatever `?tasks` filter the client gave). */
  tasks: TaskCounts[];
  /** The sums over tasks, as `GET /overview` answers them. */
  totals: Totals;
  /** Whether the store answered the last poll; when not, tasks and totals are the last known. */
  connected: boolean;
  /** Why the last poll failed, when it did. */
  error?: string;
  /** When the counts were read (ms). */
  at: number;
}

/**
 * The payload of an `alerts` event: how many alerts fire, in all and per
 * task, as of the evaluation that found them. Sent once per evaluation (so
 * `asOf` says how old the counts are), and to a client as it connects.
 */
export interface AlertsFramePayload {
  /** Alerts firing that no silence mutes. */
  firing: number;
  /** Alerts firing that a silence mutes (told nobody), apart from `firing`. */
  silenced: number;
  /** Alerts firing per task, muted ones left out; tasks with none are absent. */
  byTask: Record<string, number>;
  /** The evaluation these counts come from, ms since the epoch. */
  asOf: number;
}
