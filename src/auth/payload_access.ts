/**
 * Reads of job payloads inside routes that show more than payloads: a job's
 * page shows its state, timings and error to whoever may see the board, its
 * data, result and logs (and a progress beyond the list preview) only to a
 * user allowed `payload.read`; the same for a workflow's node data and
 * results and a schedule's data. A search or a bulk filter by data, result
 * or logs is refused without it (its matches, or its count, would be an
 * oracle on the values).
 *
 * @module
 */

import type { Context } from "hono";
import type { SessionEnv } from "./session.ts";
import { actingUser, type UserEnv } from "./user.ts";
import { canAll } from "./permissions.ts";
import { type JobDetailResponse, LIST_PROGRESS_LIMIT } from "../contract/jobs.ts";
import type { JobFilter } from "../contract/job_filter.ts";
import { clipValue } from "../contract/payload.ts";
import type { ScheduleRecord } from "../contract/schedules.ts";
import type { WorkflowDetail } from "../contract/workflows.ts";
import type { BulkOperation } from "../contract/bulk.ts";
import { BoardError } from "../errors.ts";
import type { ResolvedOptions } from "../options.ts";

/**
 * Whether the user asking may read the payloads of every one of `targets`:
 * a task, or a job's id and its task.
 */
export async function mayReadPayloads(
  c: Context<SessionEnv & UserEnv>,
  options: Pick<ResolvedOptions, "auth" | "can">,
  ...targets: [string, ...string[]]
): Promise<boolean> {
  return options.auth === null ||
    await canAll(options.can, actingUser(c), "payload.read", targets);
}

/**
 * Refuses, 403 `FORBIDDEN` naming `payload.read`, a filter by data, result
 * or logs (a search's, a bulk action's) from a user who may not read the
 * payloads of `task`; a filter by error, or none, passes.
 */
export async function assertMayFilterBy(
  c: Context<SessionEnv & UserEnv>,
  options: Pick<ResolvedOptions, "auth" | "can">,
  filter: Pick<JobFilter, "payload">,
  task: string,
): Promise<void> {
  if (filter.payload === null || filter.payload.field === "error") return;
  if (await mayReadPayloads(c, options, task)) return;
  throw new BoardError(
    "FORBIDDEN",
    `You may not read the payloads of ${task}: a search or filter by data, result or logs ` +
      "needs payload.read",
    { param: "payload.read" },
  );
}

/**
 * Whether an operation's selection is filtered by data, result or logs:
 * then its counts, and the filter it shows, depend on payloads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filtersByPayload } from "./payload_access.ts";
 * assert.equal(filtersByPayload({ state: "failed", filter: { field: "data", contains: "vip" } }), true);
 * assert.equal(filtersByPayload({ state: "failed", filter: { field: "error", contains: "SMTP" } }), false);
 * assert.equal(filtersByPayload({ ids: 3 }), false);
 * ```
 */
export function filtersByPayload(selection: BulkOperation["selection"]): boolean {
  if (!("filter" in selection)) return false;
  const { field, contains, path, value } = selection.filter;
  const searches = contains !== undefined || path !== undefined || value !== undefined;
  return searches && field !== "error";
}

/**
 * Refuses, 403 `FORBIDDEN` naming `payload.read`, an operation filtered by
 * data, result or logs to a user who may not read the payloads of its task.
 */
export async function assertMaySeeOperation(
  c: Context<SessionEnv & UserEnv>,
  options: Pick<ResolvedOptions, "auth" | "can">,
  operation: BulkOperation,
): Promise<void> {
  if (!filtersByPayload(operation.selection)) return;
  if (await mayReadPayloads(c, options, operation.task)) return;
  throw new BoardError(
    "FORBIDDEN",
    `You may not read the payloads of ${operation.task}: this operation is filtered by them`,
    { param: "payload.read" },
  );
}

/**
 * A job's page without its payloads: no data, result or logs, a progress
 * only as a list row shows it (null over {@link LIST_PROGRESS_LIMIT}), and
 * nothing that depends on what is withheld (their sizes, the count of logs).
 */
export function withoutPayloads(job: JobDetailResponse): JobDetailResponse {
  const { data: _data, result: _result, progress: progressSize, ...payloads } = job.payloads;
  const progress = clipValue(job.progress, LIST_PROGRESS_LIMIT)
    .value as JobDetailResponse["progress"];
  return {
    ...job,
    data: null,
    result: null,
    progress,
    payloads: progress === null || progressSize === undefined
      ? payloads
      : { ...payloads, progress: progressSize },
    logs: [],
    logCount: 0,
    links: { trace: null, logs: null },
  };
}

/** A workflow without its payloads: no node's data, no node's result, no workflow result. */
export function withoutWorkflowPayloads(workflow: WorkflowDetail): WorkflowDetail {
  return {
    ...workflow,
    graph: { ...workflow.graph, nodes: workflow.graph.nodes.map(({ data: _, ...node }) => node) },
    nodes: workflow.nodes.map((node) => ({ ...node, result: null })),
    result: null,
  };
}

/** A schedule without the data its runs dispatch. */
export function withoutScheduleData<S extends ScheduleRecord>(schedule: S): S {
  const { data: _, ...config } = schedule.config;
  return { ...schedule, config };
}
