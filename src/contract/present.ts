/**
 * Shapes what a source returns into API answers: formatters first, then
 * redaction, so nothing masked ever leaves the server. A value that cannot
 * be shown (its formatter threw) is replaced by {@link UNPRESENTABLE}, so one
 * bad job never fails the page it is on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createPresenter } from "./present.ts";
 * const present = createPresenter({ redact: ["password"], formatters: {} });
 * assert.deepEqual(
 *   present.data({ user: "ada", password: "s3cret" }, "login"),
 *   { user: "ada", password: "[REDACTED]" },
 * );
 * ```
 *
 * @module
 */

import type { Formatters } from "./formatters.ts";
import type { AttemptHistory } from "./attempts.ts";
import { createRedactor } from "./redact.ts";
import { createTextRedactor } from "./redact_text.ts";
import {
  type JobDetail,
  type JobDetailResponse,
  type JobResponse,
  type JobRow,
  type JobTimestamps,
  LIST_ERROR_CHARS,
  LIST_PROGRESS_LIMIT,
  type LogEntry,
  type LogLine,
} from "./jobs.ts";
import {
  clipValue,
  LOG_META_LIMIT,
  PAYLOAD_FIELDS,
  PAYLOAD_LIMIT,
  type PayloadField,
  type PayloadSize,
  PREVIEW_CHARS,
} from "./payload.ts";
import type { ScheduleRecord } from "./schedules.ts";
import { UNPRESENTABLE } from "./masks.ts";
import { timelineOf } from "./timeline.ts";
import { jobLinks, type TraceLinkConfig } from "./trace_links.ts";
import type { WorkflowDetail } from "./workflows.ts";

/** Shapes source values for the API and the event stream. */
export interface Presenter {
  /** A job row: no payloads, its error cut, a big progress left out. */
  job(job: JobRow): JobResponse;
  /** A job in full, with its newest logs; payloads over the limit give their size instead. */
  jobDetail(job: JobDetail): JobDetailResponse;
  /**
   * Log entries, their meta redacted (and left out over the limit); `first`
   * is the index of the first in the job's log.
   */
  logs(entries: readonly LogEntry[], first: number): LogLine[];
  /** An attempt history, its errors redacted and cut to {@link PREVIEW_CHARS}. */
  attempts(history: AttemptHistory): AttemptHistory;
  /** One payload of a job in full, formatted and redacted: what `GET /jobs/{id}/payloads/{field}` serves. */
  payload(job: JobDetail, field: PayloadField): unknown;
  /** A schedule, its data formatted and redacted as its task's. */
  schedule(schedule: ScheduleRecord): ScheduleRecord;
  /** A workflow in full: node inputs, node results and its result formatted and redacted. */
  workflow(workflow: WorkflowDetail): WorkflowDetail;
  /** A job's input of a task, formatted then redacted. */
  data(value: unknown, task: string): unknown;
  /** A job's result of a task (a workflow node's, an event's), formatted then redacted. */
  result(value: unknown, task: string): unknown;
  /**
   * An error message: one that is JSON gets its keys redacted; a plain text,
   * the values its redacted keys label (`password=…`, see `redact_text.ts`).
   */
  error(message: string): string;
  /** A value of no single task, redacted only. */
  value(value: unknown): unknown;
}

/** `compute()`, or {@link UNPRESENTABLE} when it throws: never the raw, unredacted value. */
function presented(compute: () => unknown, what: string): unknown {
  try {
    return compute();
  } catch (error) {
    console.warn(`queue-board: cannot present ${what}: ${error}`);
    return UNPRESENTABLE;
  }
}

/** The record's times as the API groups them. */
function timestampsOf(record: JobRow): JobTimestamps {
  return {
    created: record.createdAt,
    processed: record.processedAt,
    finished: record.finishedAt,
    runAt: record.runAt,
    cancelled: record.cancelledAt,
    expireAt: record.expireAt,
  };
}

/** Builds the presenter for the board's formatters and redaction keys (and trace links). */
export function createPresenter(
  options: { formatters: Formatters; redact: string[]; tracing?: TraceLinkConfig | null },
): Presenter {
  const redact = createRedactor(options.redact);
  const redactText = createTextRedactor(options.redact);
  const formatData = options.formatters.data ?? ((value: unknown) => value);
  const formatResult = options.formatters.result ?? ((value: unknown) => value);

  function error(message: string): string {
    if (options.redact.length === 0) return message;
    const trimmed = message.trimStart();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return redactText(message);
    try {
      return JSON.stringify(redact(JSON.parse(message)));
    } catch {
      return redactText(message);
    }
  }

  const data = (value: unknown, task: string): unknown =>
    presented(() => redact(formatData(value, task)), `the data of a ${task} job`);
  const result = (value: unknown, task: string): unknown =>
    value === null
      ? null
      : presented(() => redact(formatResult(value, task)), `the result of a ${task} job`);

  const progress = (value: JobRow["progress"]) => redact(value) as JobRow["progress"];

  /** The row with the error and progress it is to show. */
  function row(record: JobRow, shownError: string | null, shownProgress: unknown): JobResponse {
    const timestamps = timestampsOf(record);
    return {
      id: record.id,
      task: record.task,
      state: record.state,
      error: shownError,
      progress: shownProgress as JobRow["progress"],
      attempt: record.attempt,
      maxAttempts: record.maxAttempts,
      version: record.version,
      priority: record.priority,
      timestamps,
      timeline: timelineOf(record.state, timestamps),
      cancelReason: record.cancelReason,
      stalledCount: record.stalledCount,
      workflow: record.workflow,
    };
  }

  /** An error message redacted, then cut to `chars`. */
  const excerpt = (message: string, chars: number): string => {
    const shown = error(message);
    return shown.length > chars ? `${shown.slice(0, chars)}…` : shown;
  };

  function job(record: JobRow): JobResponse {
    return row(
      record,
      record.error === null ? null : excerpt(record.error, LIST_ERROR_CHARS),
      clipValue(progress(record.progress), LIST_PROGRESS_LIMIT).value,
    );
  }

  /** Each payload presented, as the job page and the payload route show it. */
  const shown: Record<PayloadField, (job: JobDetail) => unknown> = {
    data: (job) => data(job.data, job.task),
    result: (job) => result(job.result, job.task),
    error: (job) => job.error === null ? null : error(job.error),
    progress: (job) => progress(job.progress),
  };

  function jobDetail(detail: JobDetail): JobDetailResponse {
    const payloads: Partial<Record<PayloadField, PayloadSize>> = {};
    const values = {} as Record<PayloadField, unknown>;
    let shownData: unknown = null;
    for (const field of PAYLOAD_FIELDS) {
      const value = shown[field](detail);
      values[field] = value;
      if (field === "data") shownData = value;
      if (value === null) continue;
      const clip = clipValue(value, PAYLOAD_LIMIT, field === "error");
      values[field] = clip.value;
      payloads[field] = clip.size;
    }
    return {
      ...row(detail, values.error as string | null, values.progress),
      data: values.data,
      result: values.result,
      payloads,
      logs: logs(detail.logs, detail.logCount - detail.logs.length),
      logCount: detail.logCount,
      eventsTrimmedBefore: detail.eventsTrimmedBefore ?? null,
      // From the data as shown, before it is cut: a redacted traceparent gives no link.
      links: options.tracing
        ? jobLinks(options.tracing, {
          id: detail.id,
          task: detail.task,
          data: shownData,
          processed: detail.processedAt,
          finished: detail.finishedAt,
        })
        : { trace: null, logs: null },
    };
  }

  const logs = (entries: readonly LogEntry[], first: number): LogLine[] =>
    entries.map((entry, i) => {
      const index = first + i;
      if (entry.meta === undefined) return { ...entry, index };
      const clip = clipValue(redact(entry.meta), LOG_META_LIMIT);
      const { meta: _, ...rest } = entry;
      return clip.size.truncated
        ? { ...rest, index, metaSize: clip.size }
        : { ...rest, index, meta: clip.value as Record<string, unknown> };
    });

  function schedule(record: ScheduleRecord): ScheduleRecord {
    if (!("data" in record.config)) return record;
    return {
      ...record,
      config: { ...record.config, data: data(record.config.data, record.config.task) },
    };
  }

  function workflow(detail: WorkflowDetail): WorkflowDetail {
    const terminalTasks = detail.graph.terminal.map((i) => detail.nodes[i]?.taskName);
    return {
      ...detail,
      graph: {
        ...detail.graph,
        nodes: detail.graph.nodes.map((node) =>
          node.data === undefined ? node : { ...node, data: data(node.data, node.taskName) }
        ),
      },
      nodes: detail.nodes.map((node) => ({
        ...node,
        result: result(node.result, node.taskName),
      })),
      result: terminalTasks.length === 1
        ? result(detail.result, terminalTasks[0])
        : redact(detail.result),
    };
  }

  return {
    job,
    jobDetail,
    logs,
    payload: (detail, field) => shown[field](detail),
    attempts: (history) => ({
      ...history,
      attempts: history.attempts.map((attempt) => ({
        ...attempt,
        error: attempt.error === null ? null : excerpt(attempt.error, PREVIEW_CHARS),
      })),
    }),
    schedule,
    workflow,
    data,
    result,
    error,
    value: redact,
  };
}
