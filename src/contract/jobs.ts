/**
 * Jobs: the record a source decodes from the store, and the answers the API
 * builds from it (a row of a list, a job in full, a page of its log, what
 * an action did).
 *
 * @module
 */

import type { ArchivedMark } from "./history.ts";
import type { JobLinks } from "./trace_links.ts";
import type { PayloadField, PayloadSize } from "./payload.ts";
import type { JobState } from "./states.ts";

/** One entry of a job's log list. */
export interface LogEntry {
  /** `info`, `warn` or `error`. */
  level: string;
  /** What the job logged. */
  message: string;
  /** Structured context the job attached. */
  meta?: Record<string, unknown>;
  /** When it was logged (ms). */
  timestamp: number;
}

/** Where a job sits in a workflow graph. */
export interface WorkflowLink {
  /** The workflow id. */
  id: string;
  /** The job's node in the workflow graph. */
  nodeIndex: number;
}

/**
 * A job as a source reads it from the store: everything but its logs, every
 * value decoded (JSON parsed, numbers as numbers) but neither formatted nor
 * redacted. The presenter shapes it into a {@link JobResponse}.
 */
export interface JobRecord {
  /** The job id. */
  id: string;
  /** The task the job belongs to. */
  task: string;
  /** Where the job is now. */
  state: JobState;
  /** The job's input, decoded. */
  data: unknown;
  /** What the job returned, decoded; null until it completes. */
  result: unknown;
  /** The last error message, or null. */
  error: string | null;
  /** The last progress the job reported: a number or an object. */
  progress: number | Record<string, unknown> | null;
  /** The attempt running or last run (1 for the first). */
  attempt: number;
  /** How many attempts the job may have. */
  maxAttempts: number;
  /** The task version (`_v`) the job was dispatched with. */
  version: number;
  /** Dispatch priority (0 = the plain wait list). */
  priority: number;
  /** Dispatch time (`ts`), ms. */
  createdAt: number;
  /** When the last attempt started (`processedOn`), ms. */
  processedAt: number | null;
  /** When the job finished (`finishedOn`), ms. */
  finishedAt: number | null;
  /** When a delayed or retrying job becomes runnable (its delayed-set score), ms. */
  runAt: number | null;
  /** When a cancel was requested (ms). */
  cancelledAt: number | null;
  /** Why it was cancelled. */
  cancelReason: string | null;
  /** When the job expires if it has not started (ms). */
  expireAt: number | null;
  /** How often a worker lost the job. */
  stalledCount: number;
  /** The workflow node this job runs, or null. */
  workflow: WorkflowLink | null;
}

/** A job as a source lists it: its record without its payloads (lists never carry data or result). */
export type JobRow = Omit<JobRecord, "data" | "result">;

/** How many of a job's newest log entries a {@link JobDetail} carries. */
export const JOB_DETAIL_LOGS = 100;

/** A job in full, as a source reads it: its record plus its newest logs. */
export interface JobDetail extends JobRecord {
  /** The newest {@link JOB_DETAIL_LOGS} entries the job logged, oldest first. */
  logs: LogEntry[];
  /** How many entries the job's log holds. */
  logCount: number;
  /**
   * When taskora's stream cap trimmed the job's early events: the time (ms)
   * of the oldest event its task's stream keeps; null when none of its
   * events was trimmed. Left out by a source without an event stream.
   */
  eventsTrimmedBefore?: number | null;
}

/**
 * A log line as the API serves it: where it sits in the job's log (counted
 * from the oldest line), and, when its meta is over the limit, the meta's
 * size in place of the meta (`GET /jobs/{id}/logs/{index}/meta` has it whole).
 */
export interface LogLine extends LogEntry {
  /** Its place in the job's log, oldest first. */
  index: number;
  /** Set when the meta was left out for its size. */
  metaSize?: PayloadSize;
}

/** A page of a job's log and the size of the whole log. */
export interface LogPage {
  /** The entries of the page, oldest first. */
  logs: LogEntry[];
  /** How many entries the job's log holds. */
  total: number;
}

/** The record's time fields, which the API groups under `timestamps`. */
type RecordTimes =
  | "createdAt"
  | "processedAt"
  | "finishedAt"
  | "runAt"
  | "cancelledAt"
  | "expireAt";

/** One step of a job's life (see `timeline.ts`). */
export interface TimelineEntry {
  /** The state it entered, or `cancelling` when a cancel was asked of it while it ran. */
  state: string;
  /** When (ms). */
  at: number;
}

/** A job's times (ms), as the API groups them. */
export interface JobTimestamps {
  /** Dispatch time. */
  created: number;
  /** When the last attempt started. */
  processed: number | null;
  /** When the job finished. */
  finished: number | null;
  /** When a delayed or retrying job becomes runnable. */
  runAt: number | null;
  /** When a cancel was requested. */
  cancelled: number | null;
  /** When the job expires if it has not started. */
  expireAt: number | null;
}

/** Longest error message a list row carries (characters); the job page has it whole. */
export const LIST_ERROR_CHARS = 1000;

/** Largest progress (bytes of compact JSON) a list row carries; over it, the row's progress is null. */
export const LIST_PROGRESS_LIMIT = 2048;

/**
 * A job as the API answers it in lists (`GET /tasks/{task}/jobs`,
 * `GET /dlq`): the record formatted and redacted, its times grouped, and its
 * timeline. Lists never carry payloads: no data or result, the error cut to
 * {@link LIST_ERROR_CHARS}, a progress over {@link LIST_PROGRESS_LIMIT} left
 * out (null); `GET /jobs/{id}` has them.
 */
export interface JobResponse extends Omit<JobRecord, RecordTimes | "data" | "result"> {
  /** The job's times. */
  timestamps: JobTimestamps;
  /** The job's life, oldest step first. */
  timeline: TimelineEntry[];
}

/**
 * A job as `GET /jobs/{id}` answers it. A payload over the limit (see
 * `payload.ts`) reads null, and {@link JobDetailResponse.payloads} says so,
 * with its size and the start of its text.
 */
export interface JobDetailResponse extends JobResponse {
  /** The job's input, formatted and redacted; null when absent or truncated. */
  data: unknown;
  /** What the job returned; null when absent or truncated. */
  result: unknown;
  /** The size of each payload the job has (absent ones are left out). */
  payloads: Partial<Record<PayloadField, PayloadSize>>;
  /** The newest log entries (at most {@link JOB_DETAIL_LOGS}), oldest first; `GET /jobs/{id}/logs` pages them all. */
  logs: LogLine[];
  /** How many entries the job's log holds. */
  logCount: number;
  /**
   * Set when taskora's stream cap (`MAXLEN ~ 10000` per task) trimmed the
   * job's early events: the time (ms) of the oldest event kept, before which
   * its timeline and attempts may be incomplete; else null.
   */
  eventsTrimmedBefore: number | null;
  /**
   * Its trace and logs, by the `tracing` option's templates (see
   * `trace_links.ts`); both null without payload access, since the trace id
   * is read from the job's data.
   */
  links: JobLinks;
  /**
   * Set when taskora no longer holds the job and the page comes from the
   * board's history (`history` option): when the board last saw it, and
   * the summary. Such a job has no action, logs or live state.
   */
  archived?: ArchivedMark;
}

/** What a single-job action did. */
export interface JobActionResult {
  /** The job id. */
  id: string;
  /** The job's task. */
  task: string;
  /** The state it was in. */
  from: JobState;
  /**
   * The state it is in now; `cancelling` for an active job that was only
   * signalled (its worker finishes the cancel).
   */
  to: JobState | "cancelling";
}

/** What running a job again (`POST /jobs/{id}/rerun`) dispatched. */
export interface RerunResult {
  /** The new job. */
  jobId: string;
  /** Its task (the job's own). */
  task: string;
  /** The `_v` the new job was stamped with. */
  version: number;
  /**
   * Where that version came from: `app`, the taskora App's task (exact);
   * `recent-jobs`, the highest `_v` among the job run again and the task's
   * newest jobs (the board runs without the App and cannot know better).
   */
  versionFrom: "app" | "recent-jobs";
  /**
   * Whether the new job carries the task's TTL (`expireAt`): `app`, set by
   * the App's dispatch as the task's `ttl` says; `not-set`, written by the
   * board without the App, which cannot know the TTL: it never expires.
   */
  expireAtFrom: "app" | "not-set";
}

/** The answer of `POST /jobs/{id}/rerun`. */
export interface RerunResponse extends RerunResult {
  /** Always true: a refused action is an error answer. */
  ok: true;
}

/**
 * Most bytes of the JSON text of the data an edited retry
 * (`POST /jobs/{id}/retry-edited`) writes.
 */
export const MAX_EDITED_DATA_BYTES = 512 * 1024;

/**
 * The answer of `POST /jobs/{id}/retry`, `/retry-edited`, `/cancel` and
 * `POST /dlq/{id}/retry`.
 */
export interface JobActionResponse extends JobActionResult {
  /** Always true: a refused action is an error answer. */
  ok: true;
}

/** Longest job id accepted; taskora's are UUIDs, custom ids stay well below. */
export const MAX_JOB_ID_LENGTH = 256;
