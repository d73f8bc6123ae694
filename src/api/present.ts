/**
 * Shapes what a source returns into API answers: formatters first, then
 * redaction, so nothing masked ever leaves the server. A value that cannot
 * be shown (its formatter threw) is replaced by {@link UNPRESENTABLE}, so one
 * bad job never fails the page it is on.
 *
 * @module
 */

import type { ResolvedOptions } from "../options.ts";
import { createRedactor } from "../redact.ts";
import type { JobDetail, JobRecord, LogEntry } from "../source/types.ts";

/** One step of a job's life. */
export interface TimelineEntry {
  state: string;
  at: number;
}

/** The record's time fields, which the API groups under `timestamps`. */
type RecordTimes =
  | "createdAt"
  | "processedAt"
  | "finishedAt"
  | "runAt"
  | "cancelledAt"
  | "expireAt";

/** A job as the API answers it in lists: the record, its times grouped, and its timeline. */
export interface JobResponse extends Omit<JobRecord, RecordTimes> {
  timestamps: {
    created: number;
    processed: number | null;
    finished: number | null;
    runAt: number | null;
    cancelled: number | null;
    expireAt: number | null;
  };
  timeline: TimelineEntry[];
}

/** A job as `GET /jobs/{id}` answers it. */
export interface JobDetailResponse extends JobResponse {
  /** The newest log entries (at most `JOB_DETAIL_LOGS`), oldest first; `GET /jobs/{id}/logs` pages them all. */
  logs: LogEntry[];
  /** How many entries the job's log holds. */
  logCount: number;
}

/** Shapes job values for the API. */
export interface Presenter {
  /** A job row. */
  job(job: JobRecord): JobResponse;
  /** A job in full, with its newest logs. */
  jobDetail(job: JobDetail): JobDetailResponse;
  /** Log entries, their meta redacted. */
  logs(entries: readonly LogEntry[]): LogEntry[];
  /** A job's input of a task, formatted then redacted. */
  data(value: unknown, task: string): unknown;
  /** A job's result of a task (a workflow node's, an event's), formatted then redacted. */
  result(value: unknown, task: string): unknown;
  /** A value of no single task, redacted only. */
  value(value: unknown): unknown;
}

/** What a value is shown as when it cannot be presented (e.g. its formatter threw). */
export const UNPRESENTABLE = "[UNPRESENTABLE]";

/** `compute()`, or {@link UNPRESENTABLE} when it throws: never the raw, unredacted value. */
function presented(compute: () => unknown, what: string): unknown {
  try {
    return compute();
  } catch (error) {
    console.warn(`queue-board: cannot present ${what}: ${error}`);
    return UNPRESENTABLE;
  }
}

const TERMINAL = new Set(["completed", "failed", "cancelled", "expired"]);

/** The job's life rebuilt from its timestamps, oldest first. */
export function timelineOf(job: JobRecord): TimelineEntry[] {
  const steps: TimelineEntry[] = [];
  if (job.createdAt) steps.push({ state: "waiting", at: job.createdAt });
  if (job.processedAt) steps.push({ state: "active", at: job.processedAt });
  if ((job.state === "delayed" || job.state === "retrying") && job.runAt !== null) {
    steps.push({ state: job.state, at: job.runAt });
  }
  if (job.finishedAt && TERMINAL.has(job.state)) {
    steps.push({ state: job.state, at: job.finishedAt });
  } else if (job.cancelledAt && job.state === "active") {
    steps.push({ state: "cancelling", at: job.cancelledAt });
  }
  return steps.sort((a, b) => a.at - b.at);
}

/** Builds the presenter for the board's formatters and redaction keys. */
export function createPresenter(
  options: Pick<ResolvedOptions, "formatters" | "redact">,
): Presenter {
  const redact = createRedactor(options.redact);
  const formatData = options.formatters.data ?? ((value: unknown) => value);
  const formatResult = options.formatters.result ?? ((value: unknown) => value);

  function redactError(error: string | null): string | null {
    if (error === null || options.redact.length === 0) return error;
    const trimmed = error.trimStart();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return error;
    try {
      return JSON.stringify(redact(JSON.parse(error)));
    } catch {
      return error;
    }
  }

  const data = (value: unknown, task: string): unknown =>
    presented(() => redact(formatData(value, task)), `the data of a ${task} job`);
  const result = (value: unknown, task: string): unknown =>
    value === null
      ? null
      : presented(() => redact(formatResult(value, task)), `the result of a ${task} job`);

  function job(record: JobRecord): JobResponse {
    return {
      id: record.id,
      task: record.task,
      state: record.state,
      data: data(record.data, record.task),
      result: result(record.result, record.task),
      error: redactError(record.error),
      progress: redact(record.progress) as JobRecord["progress"],
      attempt: record.attempt,
      maxAttempts: record.maxAttempts,
      version: record.version,
      priority: record.priority,
      timestamps: {
        created: record.createdAt,
        processed: record.processedAt,
        finished: record.finishedAt,
        runAt: record.runAt,
        cancelled: record.cancelledAt,
        expireAt: record.expireAt,
      },
      timeline: timelineOf(record),
      cancelReason: record.cancelReason,
      stalledCount: record.stalledCount,
      workflow: record.workflow,
    };
  }

  const logs = (entries: readonly LogEntry[]): LogEntry[] =>
    entries.map((entry) =>
      entry.meta === undefined
        ? entry
        : { ...entry, meta: redact(entry.meta) as Record<string, unknown> }
    );

  return {
    job,
    jobDetail: (detail) => ({ ...job(detail), logs: logs(detail.logs), logCount: detail.logCount }),
    logs,
    data,
    result,
    value: redact,
  };
}
