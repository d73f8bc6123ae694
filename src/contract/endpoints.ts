/**
 * The API's routes as types: for each method and path pattern (relative to
 * `{basePath}/api`), what it takes (`query`, `body`; the path parameters are
 * read from the pattern's `{name}`s) and what it answers. The UI's client
 * (`ui/lib/api.ts`) is typed by it, so a call names a route that exists and
 * gets that route's answer type; `tests/unit/endpoints_test.ts` ties every
 * entry to a route of the OpenAPI document and its answer to the route's
 * schema.
 *
 * What an entry may hold:
 * - `params`: a path parameter narrower than any string;
 * - `query`: the query parameters, as the client sends them (absent or
 *   `""` is the server's default);
 * - `body`: the JSON body of a mutation;
 * - `answer`: the JSON body of a 200 answer; `paged` when it is one page of
 *   a list, with the whole list's length in `X-Total-Count`;
 * - `dryRun`: the answer when the body asks for a dry run (`dryRun: true`);
 * - `lines`: one line of an NDJSON answer (a stream or an export);
 * - `file`: a download (CSV or NDJSON) rather than data the UI reads;
 * - `events`: a stream of server-sent events.
 *
 * Types only: the UI imports it for its types, so it adds nothing to the
 * bundle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { AnswerOf, PathParams } from "./endpoints.ts";
 * import type { TaskStatsResponse } from "./tasks.ts";
 *
 * const params: PathParams<"/tasks/{task}/stats"> = { task: "send-email" };
 * const answer = { waiting: 0 } as unknown as AnswerOf<"GET", "/tasks/{task}/stats">;
 * const same: TaskStatsResponse = answer;
 * assert.equal(params.task, "send-email");
 * assert.equal(same, answer);
 * ```
 *
 * @module
 */

import type {
  AlertHistoryResponse,
  AlertRemoved,
  AlertRuleFile,
  AlertRuleView,
  AlertSilence,
  AlertsOverview,
  SilenceRequest,
  TestNoticeResponse,
} from "./alerts.ts";
import type { AttemptHistoryResponse } from "./attempts.ts";
import type { AuditEntry, AuditQuery, AuditResponse } from "./audit.ts";
import type { BulkOperation, BulkPreviewResponse, BulkRequest, BulkStartResponse } from "./bulk.ts";
import type { ConfigResponse } from "./config.ts";
import type { DeadLettersResponse, DlqRetryResponse } from "./dlq.ts";
import type { JobFilterQuery, SearchFrame } from "./job_filter.ts";
import type { JobLookup } from "./job_lookup.ts";
import type {
  JobActionResponse,
  JobDetailResponse,
  JobResponse,
  LogLine,
  RerunResponse,
} from "./jobs.ts";
import type { TaskLatencyResponse } from "./latency.ts";
import type { SchedulerLeadershipResponse, TaskLivenessResponse } from "./liveness.ts";
import type { JobDiagnosisResponse } from "./diagnosis.ts";
import type { TaskWorkersResponse } from "./workers.ts";
import type { ForecastResponse } from "./forecast.ts";
import type { ScalingResponse } from "./scaling.ts";
import type { MechanicsResponse } from "./mechanics.ts";
import type { DispatchBody, DispatchResponse } from "./dispatch.ts";
import type { MigrationLockResponse } from "./migration_lock.ts";
import type { OverviewResponse } from "./overview.ts";
import type { PayloadField } from "./payload.ts";
import type { TaskListQuery } from "./task_list.ts";
import type {
  ScheduleActionResponse,
  ScheduleRemoveResponse,
  ScheduleRunsPage,
  ScheduleView,
  TriggerResponse,
} from "./schedules.ts";
import type { FinishedState, JobState, WorkflowState } from "./states.ts";
import type {
  CleanPreviewResponse,
  CleanResponse,
  MigrationsResponse,
  RetryAllResponse,
  TaskDefinitionResponse,
  TaskStatsResponse,
} from "./tasks.ts";
import type { ThroughputBucket } from "./throughput.ts";
import type { HistoryJobResponse, HistoryPageResponse } from "./history.ts";
import type { HistoryRange, HistoryRollups, TaskWeek } from "./history_charts.ts";
import type { WorkflowCancelResponse, WorkflowDetail, WorkflowSummary } from "./workflows.ts";

/** A query parameter's value: a list is sent as the parameter repeated. */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

/** What an entry of {@link Endpoints} may hold (see the module's notes). */
export interface Endpoint {
  params?: Record<string, string>;
  query?: Record<string, QueryValue>;
  body?: unknown;
  answer?: unknown;
  paged?: true;
  dryRun?: unknown;
  lines?: unknown;
  file?: true;
  events?: true;
}

/** `limit` and `offset` of a paginated list. */
type PageQuery = {
  limit?: number;
  offset?: number;
};

/** What the dead-letter routes narrow to: one task's, one error group's. */
type DeadLetterQuery = {
  task?: string;
  pattern?: string;
};

/** The format of an export. */
type ExportQuery = {
  format?: "csv" | "ndjson";
};

/** A mutation without a body of its own (the client sends `{}`). */
/** A history search's filters (`GET /history/jobs`, its export). */
export type HistorySearchQuery = {
  task?: string;
  state?: string;
  from?: string | number;
  to?: string | number;
  version?: number;
  error?: string;
  idPrefix?: string;
};

type NoBody = Record<string, never>;

/** Every route of the API by method, then path pattern. */
export interface Endpoints {
  GET: {
    "/overview": { query: TaskListQuery & { group?: "prefix" }; answer: OverviewResponse };
    "/config": { answer: ConfigResponse };
    "/openapi.json": { answer: Record<string, unknown> };
    "/events": { query: { tasks?: string }; events: true };
    "/throughput": {
      query: { task?: string; bucket?: number; count?: number };
      answer: ThroughputBucket[];
    };
    "/history/rollups": {
      query: { task?: string; version?: number; range?: HistoryRange };
      answer: HistoryRollups;
    };
    "/history/week": { query: { task: string }; answer: TaskWeek };
    "/history/jobs": {
      query: HistorySearchQuery & { cursor?: string; limit?: number };
      answer: HistoryPageResponse;
    };
    "/history/jobs/export": { query: HistorySearchQuery & ExportQuery; file: true };
    "/history/tasks/{task}/jobs/{jobId}": { answer: HistoryJobResponse };
    "/migration-lock": { answer: MigrationLockResponse };
    "/scheduler": { answer: SchedulerLeadershipResponse };
    "/audit": {
      query: { format?: "json" | "ndjson" } & Partial<AuditQuery>;
      answer: AuditResponse;
      lines: AuditEntry;
    };
    "/tasks/{task}/jobs": {
      query: { state?: JobState } & PageQuery;
      answer: JobResponse[];
      paged: true;
    };
    "/tasks/{task}/jobs/search": {
      query: JobFilterQuery & { state?: JobState; cursor?: string; limit?: number };
      lines: SearchFrame;
    };
    "/tasks/{task}/jobs/export": { query: { state?: JobState } & ExportQuery; file: true };
    "/tasks/{task}/jobs/search/export": {
      query: JobFilterQuery & { state?: JobState } & ExportQuery;
      file: true;
    };
    "/tasks/{task}/stats": { answer: TaskStatsResponse };
    "/tasks/{task}/migrations": { query: { since?: number }; answer: MigrationsResponse };
    "/tasks/{task}/definition": { answer: TaskDefinitionResponse };
    "/tasks/{task}/latency": { answer: TaskLatencyResponse };
    "/tasks/{task}/liveness": { query: { id?: readonly string[] }; answer: TaskLivenessResponse };
    "/tasks/{task}/workers": { answer: TaskWorkersResponse };
    "/tasks/{task}/forecast": { answer: ForecastResponse };
    "/tasks/{task}/scaling": { query: { targetWait?: string }; answer: ScalingResponse };
    "/tasks/{task}/mechanics": { query: { cursor?: string }; answer: MechanicsResponse };
    "/jobs": { query: { prefix: string }; answer: JobLookup };
    "/jobs/{jobId}": { answer: JobDetailResponse };
    "/jobs/{jobId}/attempts": { answer: AttemptHistoryResponse };
    "/jobs/{jobId}/diagnosis": { answer: JobDiagnosisResponse };
    "/jobs/{jobId}/logs": {
      query: { level?: string; attempt?: number } & PageQuery;
      answer: LogLine[];
      paged: true;
    };
    "/jobs/{jobId}/logs/{index}/meta": { answer: unknown };
    "/jobs/{jobId}/payloads/{field}": {
      params: { field: PayloadField };
      query: { download?: string };
      answer: unknown;
    };
    "/schedules": { answer: ScheduleView[] };
    "/schedules/{name}/runs": {
      params: { name: string };
      query: { limit?: number; offset?: number };
      answer: ScheduleRunsPage;
    };
    "/workflows": {
      query: { state?: WorkflowState } & PageQuery;
      answer: WorkflowSummary[];
      paged: true;
    };
    "/workflows/{id}": { answer: WorkflowDetail };
    "/dlq": { query: DeadLetterQuery & PageQuery; answer: DeadLettersResponse };
    "/dlq/export": { query: DeadLetterQuery & ExportQuery; file: true };
    "/operations": { answer: BulkOperation[] };
    "/operations/{id}": { answer: BulkOperation };
    "/alerts": { answer: AlertsOverview };
    "/alerts/history": {
      query: { limit?: number; rule?: string; task?: string; state?: "firing" | "resolved" };
      answer: AlertHistoryResponse;
    };
  };
  POST: {
    "/jobs/{jobId}/retry": { body: NoBody; answer: JobActionResponse };
    "/jobs/{jobId}/retry-edited": { body: { data: unknown }; answer: JobActionResponse };
    "/jobs/{jobId}/rerun": { body: NoBody; answer: RerunResponse };
    "/jobs/{jobId}/cancel": { body: { reason?: string }; answer: JobActionResponse };
    "/tasks/{task}/retry-all": { body: NoBody; answer: RetryAllResponse };
    "/tasks/{task}/dispatch": { body: DispatchBody; answer: DispatchResponse };
    "/tasks/{task}/clean": {
      body: { state: FinishedState; olderThan: number | string; dryRun?: boolean };
      answer: CleanResponse;
      dryRun: CleanPreviewResponse;
    };
    "/schedules/{name}/pause": { body: NoBody; answer: ScheduleActionResponse };
    "/schedules/{name}/resume": { body: NoBody; answer: ScheduleActionResponse };
    "/schedules/{name}/trigger": { body: NoBody; answer: TriggerResponse };
    "/workflows/{id}/cancel": { body: { reason?: string }; answer: WorkflowCancelResponse };
    "/dlq/retry-all": {
      query: { task?: string };
      body: { pattern?: string };
      answer: DlqRetryResponse;
    };
    "/dlq/{jobId}/retry": { body: NoBody; answer: JobActionResponse };
    "/bulk": { body: BulkRequest; answer: BulkStartResponse; dryRun: BulkPreviewResponse };
    "/operations/{id}/cancel": { body: NoBody; answer: BulkStartResponse };
    "/sessions/mine/revoke": { body: NoBody; answer: SessionsRevoked };
    "/sessions/all/revoke": { body: NoBody; answer: SessionsRevoked };
    "/alerts/rules": { body: AlertRuleFile; answer: AlertRuleView };
    "/alerts/silences": { body: SilenceRequest; answer: AlertSilence };
    "/alerts/test": { body: { sink: string }; answer: TestNoticeResponse };
  };
  PUT: {
    "/schedules/{name}": {
      body: {
        cron?: string;
        every?: number | string;
        timezone?: string | null;
        data?: unknown;
        onMissed?: string;
        overlap?: boolean;
      };
      answer: ScheduleActionResponse;
    };
    "/alerts/rules/{name}": { body: AlertRuleFile; answer: AlertRuleView };
  };
  DELETE: {
    "/schedules/{name}": { answer: ScheduleRemoveResponse };
    "/alerts/rules/{name}": { answer: AlertRemoved };
    "/alerts/silences/{id}": { answer: AlertRemoved };
  };
}

/** What a sign-out-everywhere ended: whose sessions, signed in until when (ms). */
export interface SessionsRevoked {
  revoked: "mine" | "all";
  at: number;
}

/** A method of the API. */
export type Method = keyof Endpoints;

/** The path patterns of `M`. */
export type PathOf<M extends Method> = keyof Endpoints[M] & string;

/** The entry of `M P`. */
export type EndpointOf<M extends Method, P extends PathOf<M>> = Endpoints[M][P];

/** The path parameters a pattern names: `"/jobs/{jobId}"` → `{ jobId: string }`. */
export type PathParams<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name | keyof PathParams<Rest>]: string }
  : Record<never, string>;

/** The path parameters of `M P`: its pattern's, as narrow as the entry says. */
export type ParamsOf<M extends Method, P extends PathOf<M>> = EndpointOf<M, P> extends
  { params: infer Narrow } ? Omit<PathParams<P>, keyof Narrow> & Narrow : PathParams<P>;

/** The JSON answer of `M P` (the ordinary one, for a route with a dry run). */
export type AnswerOf<M extends Method, P extends PathOf<M>> = EndpointOf<M, P> extends
  { answer: infer A } ? A : never;

/** The GET routes answering JSON the UI reads. */
export type JsonPath = {
  [P in PathOf<"GET">]: Endpoints["GET"][P] extends { answer: unknown } ? P : never;
}[PathOf<"GET">];

/** The GET routes answering one page of a list. */
export type PagedPath = {
  [P in PathOf<"GET">]: Endpoints["GET"][P] extends { paged: true } ? P : never;
}[PathOf<"GET">];

/** The GET routes answering NDJSON lines. */
export type LinesPath = {
  [P in PathOf<"GET">]: Endpoints["GET"][P] extends { lines: unknown } ? P : never;
}[PathOf<"GET">];

/** The item of a paged route's list. */
export type ItemOf<P extends PagedPath> = AnswerOf<"GET", P> extends readonly (infer I)[] ? I
  : never;

/** The parts of a request to `M P`: the path parameters, the query and the body, where it has them. */
export type RequestOf<M extends Method, P extends PathOf<M>> =
  & (keyof PathParams<P> extends never ? { params?: never } : { params: ParamsOf<M, P> })
  & (EndpointOf<M, P> extends { query: infer Q extends Record<string, QueryValue> } ? { query?: Q }
    : { query?: never })
  & (EndpointOf<M, P> extends { body: infer B } ? Record<never, never> extends B ? { body?: B }
    : { body: B }
    : { body?: never });

/** The answer to a mutation sent with `request`: its dry-run answer when `request` asks for one. */
export type SentAnswerOf<M extends Method, P extends PathOf<M>, R> = R extends
  { body: { dryRun: true } } ? EndpointOf<M, P> extends { dryRun: infer D } ? D : never
  : AnswerOf<M, P>;
