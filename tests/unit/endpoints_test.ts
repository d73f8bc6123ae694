/**
 * The typed endpoint map (`src/contract/endpoints.ts`) against the routes
 * themselves: it names every route of the OpenAPI document and no other,
 * each entry takes the query and body fields its route validates and
 * answers in the route's media type, and each answer type is the output of
 * the route's schema (`Same<>`, checked by `deno check`).
 */

import { DispatchSchema } from "../../src/api/schema/dispatch.ts";
import { MechanicsSchema } from "../../src/api/schema/mechanics.ts";
import { ForecastSchema } from "../../src/api/schema/forecast.ts";
import { ScalingSchema } from "../../src/api/schema/scaling.ts";
import { TaskWorkersSchema } from "../../src/api/schema/workers.ts";
import { HistoryRollupsSchema, TaskWeekSchema } from "../../src/api/schema/history_charts.ts";
import { HistoryJobSchema, HistoryPageSchema } from "../../src/api/schema/history.ts";
import assert from "node:assert/strict";
import { type RouteConfig, z } from "@hono/zod-openapi";
import type { Same } from "../../src/same.ts";
import { AttemptHistorySchema } from "../../src/api/schema/jobs.ts";
import { JobDiagnosisSchema } from "../../src/api/schema/diagnosis.ts";
import {
  AuditEntrySchema,
  AuditSchema,
  ConfigSchema,
  MigrationLockSchema,
  SchedulerSchema,
  TaskLivenessSchema,
  ThroughputSchema,
} from "../../src/api/schema/board.ts";
import {
  BulkOperationSchema,
  BulkPreviewSchema,
  BulkStartSchema,
} from "../../src/api/schema/bulk.ts";
import { AnyJson, JobSchema, LogLineSchema } from "../../src/api/schema/common.ts";
import { JobActionSchema, JobDetailSchema, RerunSchema } from "../../src/api/schema/jobs.ts";
import { JobLookupSchema } from "../../src/api/schema/job_lookup.ts";
import { TaskLatencySchema } from "../../src/api/schema/latency.ts";
import { OverviewSchema } from "../../src/api/schema/overview.ts";
import {
  DeadLettersSchema,
  DlqRetrySchema,
  ScheduleActionSchema,
  ScheduleRemoveSchema,
  ScheduleRunsSchema,
  ScheduleSchema,
  TriggerSchema,
  WorkflowCancelSchema,
  WorkflowDetailSchema,
  WorkflowSummarySchema,
} from "../../src/api/schema/queues.ts";
import { SearchFrameSchema } from "../../src/api/schema/search.ts";
import {
  CleanSchema,
  MigrationsSchema,
  RetryAllSchema,
  TaskDefinitionSchema,
  TaskStatsSchema,
} from "../../src/api/schema/tasks.ts";
import type {
  AnswerOf,
  Endpoint,
  EndpointOf,
  Endpoints,
  Method,
  PathOf,
  PathParams,
  SessionsRevoked,
} from "../../src/contract/endpoints.ts";
import {
  AlertHistorySchema,
  AlertRemovedSchema,
  AlertRuleViewSchema,
  AlertSilenceSchema,
  AlertsOverviewSchema,
  TestNoticeSchema,
} from "../../src/api/schema/alerts.ts";
import { apiRouteConfigs } from "../helpers/checked_board.ts";

/** How a route answers, as its entry says. */
type Kind<E> = E extends { events: true } ? "events"
  : E extends { file: true } ? "file"
  : E extends { paged: true } ? "paged"
  : E extends { answer: unknown; lines: unknown } ? "json+lines"
  : E extends { lines: unknown } ? "lines"
  : "json";

type Keys<E, Part extends string> = E extends { [K in Part]: infer T } ? keyof T : never;

/** What the test reads of an entry at run time: its kind, its query and body fields by name. */
type Fields<M extends Method, P extends PathOf<M>> =
  & { kind: Kind<EndpointOf<M, P>> }
  & ([Keys<EndpointOf<M, P>, "query">] extends [never] ? { query?: never }
    : { query: Record<Keys<EndpointOf<M, P>, "query">, true> })
  & ([Keys<EndpointOf<M, P>, "body">] extends [never] ? { body?: never }
    : { body: Record<Keys<EndpointOf<M, P>, "body">, true> });

const page = { limit: true, offset: true } as const;
/** A job filter's query parameters (the search and its export). */
const filterParams = {
  from: true,
  to: true,
  id: true,
  field: true,
  contains: true,
  path: true,
  value: true,
} as const;
const noBody = { body: {} } as const;
/** The fields of a rule in the file format. */
const RULE_FIELDS = {
  name: true,
  kind: true,
  tasks: true,
  threshold: true,
  window: true,
  minFinished: true,
  for: true,
  repeat: true,
  sinks: true,
} as const;

/** The map at run time: `satisfies` makes each list the map's own (a name more or less fails `deno check`). */
const ENTRIES = {
  GET: {
    "/overview": {
      kind: "json",
      query: { q: true, health: true, prefix: true, sort: true, group: true, ...page },
    },
    "/config": { kind: "json" },
    "/openapi.json": { kind: "json" },
    "/events": { kind: "events", query: { tasks: true } },
    "/throughput": { kind: "json", query: { task: true, bucket: true, count: true } },
    "/history/rollups": { kind: "json", query: { task: true, version: true, range: true } },
    "/history/week": { kind: "json", query: { task: true } },
    "/history/jobs": {
      kind: "json",
      query: {
        task: true,
        state: true,
        from: true,
        to: true,
        version: true,
        error: true,
        idPrefix: true,
        cursor: true,
        limit: true,
      },
    },
    "/history/jobs/export": {
      kind: "file",
      query: {
        task: true,
        state: true,
        from: true,
        to: true,
        version: true,
        error: true,
        idPrefix: true,
        format: true,
      },
    },
    "/history/tasks/{task}/jobs/{jobId}": { kind: "json" },
    "/migration-lock": { kind: "json" },
    "/scheduler": { kind: "json" },
    "/audit": {
      kind: "json+lines",
      query: {
        format: true,
        limit: true,
        before: true,
        from: true,
        to: true,
        user: true,
        action: true,
        task: true,
        outcome: true,
        via: true,
      },
    },
    "/tasks/{task}/jobs": { kind: "paged", query: { state: true, ...page } },
    "/tasks/{task}/jobs/search": {
      kind: "lines",
      query: {
        state: true,
        ...filterParams,
        cursor: true,
        limit: true,
      },
    },
    "/tasks/{task}/jobs/export": { kind: "file", query: { state: true, format: true } },
    "/tasks/{task}/jobs/search/export": {
      kind: "file",
      query: {
        state: true,
        ...filterParams,
        format: true,
      },
    },
    "/tasks/{task}/stats": { kind: "json" },
    "/tasks/{task}/migrations": { kind: "json", query: { since: true } },
    "/tasks/{task}/definition": { kind: "json" },
    "/tasks/{task}/latency": { kind: "json" },
    "/tasks/{task}/liveness": { kind: "json", query: { id: true } },
    "/tasks/{task}/workers": { kind: "json" },
    "/tasks/{task}/forecast": { kind: "json" },
    "/tasks/{task}/scaling": { kind: "json", query: { targetWait: true } },
    "/tasks/{task}/mechanics": { kind: "json", query: { cursor: true } },
    "/jobs": { kind: "json", query: { prefix: true } },
    "/jobs/{jobId}": { kind: "json" },
    "/jobs/{jobId}/attempts": { kind: "json" },
    "/jobs/{jobId}/diagnosis": { kind: "json" },
    "/jobs/{jobId}/logs": { kind: "paged", query: { level: true, attempt: true, ...page } },
    "/jobs/{jobId}/logs/{index}/meta": { kind: "json" },
    "/jobs/{jobId}/payloads/{field}": { kind: "json", query: { download: true } },
    "/schedules": { kind: "json" },
    "/schedules/{name}/runs": { kind: "json", query: page },
    "/workflows": { kind: "paged", query: { state: true, ...page } },
    "/workflows/{id}": { kind: "json" },
    "/dlq": { kind: "json", query: { task: true, pattern: true, ...page } },
    "/dlq/export": { kind: "file", query: { task: true, pattern: true, format: true } },
    "/operations": { kind: "json" },
    "/operations/{id}": { kind: "json" },
    "/alerts": { kind: "json" },
    "/alerts/history": {
      kind: "json",
      query: { limit: true, rule: true, task: true, state: true },
    },
  },
  POST: {
    "/jobs/{jobId}/retry": { kind: "json", ...noBody },
    "/jobs/{jobId}/retry-edited": { kind: "json", body: { data: true } },
    "/jobs/{jobId}/rerun": { kind: "json", ...noBody },
    "/jobs/{jobId}/cancel": { kind: "json", body: { reason: true } },
    "/tasks/{task}/retry-all": { kind: "json", ...noBody },
    "/tasks/{task}/dispatch": {
      kind: "json",
      body: { data: true, delay: true, priority: true, concurrencyKey: true },
    },
    "/tasks/{task}/clean": {
      kind: "json",
      body: { state: true, olderThan: true, dryRun: true },
    },
    "/schedules/{name}/pause": { kind: "json", ...noBody },
    "/schedules/{name}/resume": { kind: "json", ...noBody },
    "/schedules/{name}/trigger": { kind: "json", ...noBody },
    "/workflows/{id}/cancel": { kind: "json", body: { reason: true } },
    "/dlq/retry-all": { kind: "json", query: { task: true }, body: { pattern: true } },
    "/dlq/{jobId}/retry": { kind: "json", ...noBody },
    "/bulk": {
      kind: "json",
      body: { action: true, selector: true, dryRun: true, reason: true },
    },
    "/operations/{id}/cancel": { kind: "json", ...noBody },
    "/sessions/mine/revoke": { kind: "json", ...noBody },
    "/sessions/all/revoke": { kind: "json", ...noBody },
    "/alerts/rules": { kind: "json", body: RULE_FIELDS },
    "/alerts/silences": {
      kind: "json",
      body: { scope: true, until: true, duration: true, reason: true },
    },
    "/alerts/test": { kind: "json", body: { sink: true } },
  },
  PUT: {
    "/schedules/{name}": {
      kind: "json",
      body: { cron: true, every: true, timezone: true, data: true, onMissed: true, overlap: true },
    },
    "/alerts/rules/{name}": { kind: "json", body: RULE_FIELDS },
  },
  DELETE: {
    "/schedules/{name}": { kind: "json" },
    "/alerts/rules/{name}": { kind: "json" },
    "/alerts/silences/{id}": { kind: "json" },
  },
} as const satisfies { [M in Method]: { [P in PathOf<M>]: Fields<M, P> } };

/** The document's own answer schema (the route's is inline): an object of anything. */
const DocumentSchema = z.record(z.string(), z.unknown());

/** Each JSON answer's schema (`[S]`: a list of `S`), as the route files declare it. */
const ANSWERS = {
  GET: {
    "/overview": OverviewSchema,
    "/config": ConfigSchema,
    "/openapi.json": DocumentSchema,
    "/throughput": ThroughputSchema,
    "/history/rollups": HistoryRollupsSchema,
    "/history/week": TaskWeekSchema,
    "/history/jobs": HistoryPageSchema,
    "/history/tasks/{task}/jobs/{jobId}": HistoryJobSchema,
    "/migration-lock": MigrationLockSchema,
    "/scheduler": SchedulerSchema,
    "/audit": AuditSchema,
    "/tasks/{task}/jobs": [JobSchema],
    "/tasks/{task}/stats": TaskStatsSchema,
    "/tasks/{task}/migrations": MigrationsSchema,
    "/tasks/{task}/definition": TaskDefinitionSchema,
    "/tasks/{task}/latency": TaskLatencySchema,
    "/tasks/{task}/liveness": TaskLivenessSchema,
    "/tasks/{task}/workers": TaskWorkersSchema,
    "/tasks/{task}/forecast": ForecastSchema,
    "/tasks/{task}/scaling": ScalingSchema,
    "/tasks/{task}/mechanics": MechanicsSchema,
    "/jobs": JobLookupSchema,
    "/jobs/{jobId}": JobDetailSchema,
    "/jobs/{jobId}/attempts": AttemptHistorySchema,
    "/jobs/{jobId}/diagnosis": JobDiagnosisSchema,
    "/jobs/{jobId}/logs": [LogLineSchema],
    "/jobs/{jobId}/logs/{index}/meta": AnyJson,
    "/jobs/{jobId}/payloads/{field}": AnyJson,
    "/schedules": [ScheduleSchema],
    "/schedules/{name}/runs": ScheduleRunsSchema,
    "/workflows": [WorkflowSummarySchema],
    "/workflows/{id}": WorkflowDetailSchema,
    "/dlq": DeadLettersSchema,
    "/operations": [BulkOperationSchema],
    "/operations/{id}": BulkOperationSchema,
    "/alerts": AlertsOverviewSchema,
    "/alerts/history": AlertHistorySchema,
  },
  POST: {
    "/jobs/{jobId}/retry": JobActionSchema,
    "/jobs/{jobId}/retry-edited": JobActionSchema,
    "/jobs/{jobId}/rerun": RerunSchema,
    "/jobs/{jobId}/cancel": JobActionSchema,
    "/tasks/{task}/retry-all": RetryAllSchema,
    "/tasks/{task}/dispatch": DispatchSchema,
    "/tasks/{task}/clean": CleanSchema,
    "/schedules/{name}/pause": ScheduleActionSchema,
    "/schedules/{name}/resume": ScheduleActionSchema,
    "/schedules/{name}/trigger": TriggerSchema,
    "/workflows/{id}/cancel": WorkflowCancelSchema,
    "/dlq/retry-all": DlqRetrySchema,
    "/dlq/{jobId}/retry": JobActionSchema,
    "/bulk": BulkStartSchema,
    "/operations/{id}/cancel": BulkStartSchema,
    "/alerts/rules": AlertRuleViewSchema,
    "/alerts/silences": AlertSilenceSchema,
    "/alerts/test": TestNoticeSchema,
  },
  PUT: { "/schedules/{name}": ScheduleActionSchema, "/alerts/rules/{name}": AlertRuleViewSchema },
  DELETE: {
    "/schedules/{name}": ScheduleRemoveSchema,
    "/alerts/rules/{name}": AlertRemovedSchema,
    "/alerts/silences/{id}": AlertRemovedSchema,
  },
} as const;

/** The dry-run answers' schemas, where the route answers a dry run apart (`POST /bulk`: 200 beside its 202). */
const DRY_RUNS = { "/bulk": BulkPreviewSchema } as const;

/** Each NDJSON line's schema. */
const LINES = {
  "/audit": AuditEntrySchema,
  "/tasks/{task}/jobs/search": SearchFrameSchema,
} as const;

type Output<S> = S extends readonly [infer E extends z.ZodType] ? z.output<E>[]
  : S extends z.ZodType ? z.output<S>
  : never;

/** What the map says a route answers: the ordinary answer, or either answer of a route with a dry run in one schema. */
type Answered<E> = E extends { dryRun: infer D; answer: infer A } ? A | D
  : E extends { answer: infer A } ? A
  : never;

type Tables = typeof ANSWERS;
/** Each `METHOD path` whose schema's output is not the map's answer. */
type Untied = {
  [M in keyof Tables]: {
    [P in keyof Tables[M]]: P extends PathOf<M> ? Same<
        Output<Tables[M][P]>,
        P extends keyof typeof DRY_RUNS ? AnswerOf<M, P> : Answered<EndpointOf<M, P>>
      > extends true ? never
      : `${M} ${P}`
      : `${M} ${P & string}`;
  }[keyof Tables[M]];
}[keyof Tables];
// A mismatch names its route here: `{}` lacks the property.
const untied: Record<Untied, never> = {};
true satisfies Same<z.output<typeof BulkPreviewSchema>, Endpoints["POST"]["/bulk"]["dryRun"]>;
true satisfies Same<z.output<typeof AuditEntrySchema>, Endpoints["GET"]["/audit"]["lines"]>;
true satisfies Same<
  z.output<typeof SearchFrameSchema>,
  Endpoints["GET"]["/tasks/{task}/jobs/search"]["lines"]
>;

/** Every entry holds only what an entry may hold. */
true satisfies Same<
  { [M in Method]: { [P in PathOf<M>]: Endpoints[M][P] extends Endpoint ? never : P }[PathOf<M>] }[
    Method
  ],
  never
>;

/** The path parameters an entry narrows are its pattern's. */
type NarrowedElsewhere = {
  [M in Method]: {
    [P in PathOf<M>]: EndpointOf<M, P> extends { params: infer N }
      ? Exclude<keyof N, keyof PathParams<P>>
      : never;
  }[PathOf<M>];
}[Method];
true satisfies Same<NarrowedElsewhere, never>;

const ROUTES = new Map(
  apiRouteConfigs().map((route) => [`${route.method.toUpperCase()} ${route.path}`, route]),
);

/** What the tests read of an entry. */
interface EntryFields {
  kind: string;
  query?: Record<string, true>;
  body?: Record<string, true>;
}

function entries(): [key: string, route: RouteConfig, fields: EntryFields][] {
  return Object.entries(ENTRIES).flatMap(([method, paths]) =>
    Object.entries(paths).map(([path, fields]): [string, RouteConfig, EntryFields] => {
      const key = `${method} ${path}`;
      const route = ROUTES.get(key);
      assert.ok(route, `${key} is a route of the OpenAPI document`);
      return [key, route, fields];
    })
  );
}

/**
 * The JSON Schema of a zod schema's output (or, `input`, of what a client
 * sends it): two schemas are the same when these are equal.
 */
function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): unknown {
  return z.toJSONSchema(schema, { io, unrepresentable: "any" });
}

function contentOf(
  route: RouteConfig,
  status: 200 | 201 | 202,
): Record<string, { schema: z.ZodType }> {
  const response = route.responses[status] as
    | { content?: Record<string, { schema: z.ZodType }> }
    | undefined;
  return response?.content ?? {};
}

/** The status of a route's answer: 201 for a route that makes something, else 200. */
function okStatusOf(route: RouteConfig): 200 | 201 {
  return route.responses[201] ? 201 : 200;
}

function namesOf(schema: unknown): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : [];
}

Deno.test("the endpoint map has every route of the OpenAPI document, and no other", () => {
  const mapped = entries().map(([key]) => key).sort();
  assert.deepEqual(mapped, [...ROUTES.keys()].sort());
  assert.equal(Object.keys(untied).length, 0);
});

Deno.test("each entry takes the query and the body fields its route validates", () => {
  for (const [key, route, fields] of entries()) {
    assert.deepEqual(
      Object.keys(fields.query ?? {}).sort(),
      namesOf(route.request?.query),
      `${key}: query`,
    );
    const media = route.request?.body?.content["application/json"];
    const body = media && "schema" in media ? media.schema : undefined;
    const bodyFields = body instanceof z.ZodType
      ? Object.keys((jsonSchemaOf(body, "input") as { properties?: object }).properties ?? {})
        .sort()
      : undefined;
    assert.deepEqual(
      fields.body === undefined ? undefined : Object.keys(fields.body).sort(),
      bodyFields,
      `${key}: body`,
    );
  }
});

Deno.test("each entry answers in its route's media type; a paged one sends X-Total-Count", () => {
  const kindOf = (route: RouteConfig): string => {
    const types = Object.keys(contentOf(route, okStatusOf(route))).sort().join(" ");
    if (types === "text/event-stream") return "events";
    if (types === "application/x-ndjson text/csv") return "file";
    if (types === "application/x-ndjson") return "lines";
    if (types === "application/json application/x-ndjson") return "json+lines";
    assert.equal(types, "application/json", `${route.method} ${route.path}`);
    const headers = route.responses[200] as { headers?: z.ZodObject };
    const list = contentOf(route, okStatusOf(route))["application/json"].schema instanceof
      z.ZodArray;
    return list && headers.headers?.shape["X-Total-Count"] ? "paged" : "json";
  };
  for (const [key, route, fields] of entries()) assert.equal(fields.kind, kindOf(route), key);
});

Deno.test("each answer is its route's schema", () => {
  const tied = Object.entries(ANSWERS).flatMap(([method, paths]) =>
    Object.entries(paths).map(([path, schema]) => [`${method} ${path}`, path, schema] as const)
  );
  // The sign-outs' schema is their route file's own: the last test ties them by field.
  const json = entries().filter(([key, , { kind }]) =>
    (kind === "json" || kind === "paged" || kind === "json+lines") && !key.includes("/sessions/")
  );
  assert.deepEqual(tied.map(([key]) => key).sort(), json.map(([key]) => key).sort());
  for (const [key, path, schema] of tied) {
    const route = ROUTES.get(key)!;
    const declared = Array.isArray(schema) ? z.array(schema[0]) : schema as z.ZodType;
    // `POST /bulk` starts with 202 and answers its dry run with 200.
    const status = path in DRY_RUNS && key.startsWith("POST") ? 202 : okStatusOf(route);
    const actual = contentOf(route, status)["application/json"].schema;
    assert.deepEqual(jsonSchemaOf(actual), jsonSchemaOf(declared), key);
  }
  const dryRun = contentOf(ROUTES.get("POST /bulk")!, 200)["application/json"].schema;
  assert.deepEqual(jsonSchemaOf(dryRun), jsonSchemaOf(DRY_RUNS["/bulk"]));
  for (const [path, schema] of Object.entries(LINES)) {
    const actual = contentOf(ROUTES.get(`GET ${path}`)!, 200)["application/x-ndjson"].schema;
    assert.deepEqual(jsonSchemaOf(actual), jsonSchemaOf(schema), path);
  }
});

Deno.test("a sign-out-everywhere answers the map's SessionsRevoked (its schema is the route's own)", () => {
  const fields = { revoked: true, at: true } satisfies Record<keyof SessionsRevoked, true>;
  for (const scope of ["mine", "all"]) {
    const schema = contentOf(ROUTES.get(`POST /sessions/${scope}/revoke`)!, 200)["application/json"]
      .schema;
    assert.deepEqual(namesOf(schema), Object.keys(fields).sort());
    const answer: SessionsRevoked = { revoked: "mine", at: 1 };
    assert.ok(schema.safeParse(answer).success);
  }
});
