/**
 * Shapes what a source returns into API answers: formatters first, then
 * redaction, so nothing masked ever leaves the server. A value that cannot
 * be shown (its formatter threw) is replaced by {@link UNPRESENTABLE}, so one
 * bad job never fails the page it is on.
 *
 * @example
 * ```ts
 * import { createPresenter } from "./present.ts";
 * const present = createPresenter({ redact: ["password"], formatters: {} });
 * present.data({ user: "ada", password: "s3cret" }, "login"); // { user: "ada", password: "[REDACTED]" }
 * ```
 *
 * @module
 */

import type { ResolvedOptions } from "../options.ts";
import { createRedactor } from "./redact.ts";
import type {
  JobDetail,
  JobDetailResponse,
  JobRecord,
  JobResponse,
  JobTimestamps,
  LogEntry,
} from "./jobs.ts";
import type { ScheduleRecord } from "./schedules.ts";
import { UNPRESENTABLE } from "./masks.ts";
import { timelineOf } from "./timeline.ts";
import type { WorkflowDetail } from "./workflows.ts";

/** Shapes source values for the API and the event stream. */
export interface Presenter {
  /** A job row. */
  job(job: JobRecord): JobResponse;
  /** A job in full, with its newest logs. */
  jobDetail(job: JobDetail): JobDetailResponse;
  /** Log entries, their meta redacted. */
  logs(entries: readonly LogEntry[]): LogEntry[];
  /** A schedule, its data formatted and redacted as its task's. */
  schedule(schedule: ScheduleRecord): ScheduleRecord;
  /** A workflow in full: node inputs, node results and its result formatted and redacted. */
  workflow(workflow: WorkflowDetail): WorkflowDetail;
  /** A job's input of a task, formatted then redacted. */
  data(value: unknown, task: string): unknown;
  /** A job's result of a task (a workflow node's, an event's), formatted then redacted. */
  result(value: unknown, task: string): unknown;
  /** An error message: one that is JSON gets its keys redacted. */
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
function timestampsOf(record: JobRecord): JobTimestamps {
  return {
    created: record.createdAt,
    processed: record.processedAt,
    finished: record.finishedAt,
    runAt: record.runAt,
    cancelled: record.cancelledAt,
    expireAt: record.expireAt,
  };
}

/** Builds the presenter for the board's formatters and redaction keys. */
export function createPresenter(
  options: Pick<ResolvedOptions, "formatters" | "redact">,
): Presenter {
  const redact = createRedactor(options.redact);
  const formatData = options.formatters.data ?? ((value: unknown) => value);
  const formatResult = options.formatters.result ?? ((value: unknown) => value);

  function error(message: string): string {
    if (options.redact.length === 0) return message;
    const trimmed = message.trimStart();
    if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return message;
    try {
      return JSON.stringify(redact(JSON.parse(message)));
    } catch {
      return message;
    }
  }

  const data = (value: unknown, task: string): unknown =>
    presented(() => redact(formatData(value, task)), `the data of a ${task} job`);
  const result = (value: unknown, task: string): unknown =>
    value === null
      ? null
      : presented(() => redact(formatResult(value, task)), `the result of a ${task} job`);

  function job(record: JobRecord): JobResponse {
    const timestamps = timestampsOf(record);
    return {
      id: record.id,
      task: record.task,
      state: record.state,
      data: data(record.data, record.task),
      result: result(record.result, record.task),
      error: record.error === null ? null : error(record.error),
      progress: redact(record.progress) as JobRecord["progress"],
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

  const logs = (entries: readonly LogEntry[]): LogEntry[] =>
    entries.map((entry) =>
      entry.meta === undefined
        ? entry
        : { ...entry, meta: redact(entry.meta) as Record<string, unknown> }
    );

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
    jobDetail: (detail) => ({ ...job(detail), logs: logs(detail.logs), logCount: detail.logCount }),
    logs,
    schedule,
    workflow,
    data,
    result,
    error,
    value: redact,
  };
}
