/**
 * The MCP tools, generated from the API's OpenAPI document (the one
 * `GET /api/openapi.json` serves, built from the routes' own declarations):
 * one tool per route, its input schema from the route's parameters and body,
 * so a route and its tool cannot drift. A route without a tool is listed in
 * {@link ROUTES_WITHOUT_TOOL} with the reason.
 *
 * @module
 */

/** A JSON Schema, as the document and MCP's `inputSchema` carry it. */
export type JsonSchema = Record<string, unknown>;

/** One tool: the route it calls and how its arguments map onto the request. */
export interface RouteTool {
  /** `get_jobs_jobId_diagnosis`: the method and the path's segments. */
  name: string;
  /** The route's summary and description, and what it records. */
  description: string;
  method: string;
  /** The route's path under `/api`, with `{name}` parameters. */
  path: string;
  /** The catalogue action a mutation records (`x-audit`); null for a read. */
  action: string | null;
  /** The action a read needs permission for (`x-permission`: `payload.read`, `audit.read`…), or null. */
  permission: string | null;
  /** The arguments: path and query parameters, and the JSON body as `body`. */
  inputSchema: JsonSchema & { type: "object" };
  /** Where each parameter goes. */
  params: readonly { name: string; in: "path" | "query" }[];
  /** The media type asked for: JSON, or NDJSON for a route that streams only that (the search). */
  accept: "application/json" | "application/x-ndjson";
}

/**
 * Routes that are no tool, and why: what an agent reads through another tool,
 * or what is no answer to read.
 */
export const ROUTES_WITHOUT_TOOL: Readonly<Record<string, string>> = {
  "GET /openapi.json": "the document the tools are made from",
  "GET /events": "a live event stream, never one answer",
  "GET /tasks/{task}/jobs/export": "a file download; get_tasks_task_jobs reads the same jobs",
  "GET /tasks/{task}/jobs/search/export":
    "a file download; get_tasks_task_jobs_search reads the same matches",
  "GET /dlq/export": "a file download; get_dlq reads the same dead letters",
};

interface Operation {
  summary?: string;
  description?: string;
  parameters?: {
    name: string;
    in: string;
    required?: boolean;
    schema?: JsonSchema;
    description?: string;
  }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  "x-audit"?: { action: string };
  "x-permission"?: { action: string };
}

/** An OpenAPI 3.1 document (what `getOpenAPI31Document` builds). */
export interface ApiDocument {
  paths?: object;
  components?: object;
}

/** The part of the document the catalogue reads. */
interface ReadDocument {
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ["get", "post", "put", "patch", "delete"];
const COMPONENT_REF = "#/components/schemas/";

/**
 * The tool name of a route: its method, then its path's segments.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolName } from "./catalogue.ts";
 *
 * assert.equal(toolName("POST", "/jobs/{jobId}/retry"), "post_jobs_jobId_retry");
 * assert.equal(toolName("get", "/migration-lock"), "get_migration_lock");
 * ```
 */
export function toolName(method: string, path: string): string {
  const segments = path.split("/").filter(Boolean).map((segment) =>
    segment.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+/g, "_")
  );
  return [method.toLowerCase(), ...segments].join("_");
}

/**
 * A body schema made to stand alone: its `$ref`s to the document's components
 * point into its own `$defs`, which hold those components (and theirs).
 */
function standalone(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const defs: Record<string, JsonSchema> = {};
  const pending = [schema];
  while (pending.length > 0) {
    const text = JSON.stringify(pending.pop());
    for (const [, name] of text.matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (name in defs || !(name in components)) continue;
      defs[name] = components[name];
      pending.push(components[name]);
    }
  }
  const relink = (value: JsonSchema) =>
    JSON.parse(JSON.stringify(value).replaceAll(`"${COMPONENT_REF}`, '"#/$defs/'));
  const names = Object.keys(defs);
  if (names.length === 0) return schema;
  return {
    ...relink(schema),
    $defs: Object.fromEntries(names.map((name) => [name, relink(defs[name])])),
  };
}

function answerMedia(operation: Operation): RouteTool["accept"] | null {
  const ok = operation.responses?.["200"] ?? operation.responses?.["201"];
  const content = ok?.content ?? {};
  if ("application/json" in content) return "application/json";
  if ("application/x-ndjson" in content) return "application/x-ndjson";
  return null;
}

function toolOf(
  method: string,
  path: string,
  operation: Operation,
  components: Record<string, JsonSchema>,
  accept: RouteTool["accept"],
): RouteTool {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const params: RouteTool["params"][number][] = [];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== "path" && parameter.in !== "query") continue;
    params.push({ name: parameter.name, in: parameter.in });
    properties[parameter.name] = {
      ...parameter.schema,
      ...parameter.description && { description: parameter.description },
    };
    if (parameter.required) required.push(parameter.name);
  }
  const body = operation.requestBody?.content?.["application/json"]?.schema;
  if (body) {
    properties.body = standalone(body, components);
    if (operation.requestBody?.required) required.push("body");
  }
  const action = operation["x-audit"]?.action ?? null;
  const description = [
    operation.summary,
    operation.description,
    action && `Changes the queue: recorded in the audit trail as \`${action}\`.`,
  ].filter(Boolean).join("\n\n");
  return {
    name: toolName(method, path),
    description,
    method: method.toUpperCase(),
    path,
    action,
    permission: operation["x-permission"]?.action ?? null,
    inputSchema: { type: "object", properties, ...required.length > 0 && { required } },
    params,
    accept,
  };
}

/**
 * One tool per operation of `document` but {@link ROUTES_WITHOUT_TOOL}.
 * Throws for a route that answers neither JSON nor NDJSON and is not listed
 * there: a new route must be given a tool or a reason.
 */
export function routeTools(api: ApiDocument): RouteTool[] {
  const document = api as ReadDocument;
  const components = document.components?.schemas ?? {};
  const tools: RouteTool[] = [];
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      const route = `${method.toUpperCase()} ${path}`;
      if (route in ROUTES_WITHOUT_TOOL) continue;
      const accept = answerMedia(operation);
      if (accept === null) {
        throw new Error(
          `queue-board: ${route} answers neither JSON nor NDJSON: give it a tool or a reason in ROUTES_WITHOUT_TOOL`,
        );
      }
      tools.push(toolOf(method, path, operation, components, accept));
    }
  }
  return tools;
}
