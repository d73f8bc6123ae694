/**
 * The API's OpenAPI 3.1 contract, from the definitions the routes validate
 * with (`@hono/zod-openapi`): the document cannot drift from the routes.
 *
 * How a route is written (every file of `src/api/` does it this way):
 *
 * 1. Describe it with {@link apiRoute}: method, path (`{name}` for a path
 *    parameter), zod schemas for `params`, `query` and the JSON `body`, the
 *    schema of the 200 answer (`ok`, from `schema/`) and the catalogue codes
 *    it may answer with beside the ones every route or mutation shares. A
 *    route that changes something names the action the audit trail records
 *    for it (`audit`, from `audit_actions.ts`): without one it does not
 *    type-check.
 * 2. Register it on an {@link apiRouter} with `.openapi(route, handler)`: the
 *    handler reads what was validated with `c.req.valid("param" | "query" |
 *    "json")`. A value the schemas refuse never reaches it; {@link apiRouter}'s
 *    hook answers 400 `INVALID_PARAM` naming the parameter or field.
 * 3. Mount the router in `mod.ts`. The document (`GET /openapi.json`) lists
 *    it from then on, and the HTTP tests check its answers against `ok`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { z } from "@hono/zod-openapi";
 * import { apiRoute, apiRouter } from "./openapi.ts";
 *
 * const getGreeting = apiRoute({
 *   method: "get",
 *   path: "/greetings/{name}",
 *   summary: "A greeting",
 *   request: { params: z.object({ name: z.string().max(20) }) },
 *   ok: z.object({ text: z.string() }),
 *   errors: ["TASK_NOT_FOUND"],
 * });
 * const app = apiRouter().openapi(getGreeting, (c) => {
 *   const { name } = c.req.valid("param");
 *   return c.json({ text: `hello ${name}` }, 200);
 * });
 * assert.equal((await app.request("/greetings/ada")).status, 200);
 * ```
 *
 * @module
 */

import { type OpenAPIHono, OpenAPIHono as Router, type RouteConfig, z } from "@hono/zod-openapi";
import type { Env } from "hono";
import { fieldPath } from "../config_fields.ts";
import type { ErrorCode } from "../contract/errors.ts";
import { BoardError, statusOf } from "../errors.ts";
import type { AuditDeclaration, PermissionDeclaration } from "../audit/actions.ts";
import { ErrorSchema } from "./schema/common.ts";

/** The one fixed body: `/api/*` without a session under session login. */
const UnauthorizedSchema = z.object({ error: z.literal("Unauthorized") }).openapi(
  "Unauthorized",
);

/** What every route may answer with, beside its own codes. */
const EVERY_ROUTE: readonly ErrorCode[] = [
  "HOST_NOT_ALLOWED",
  "STORE_UNAVAILABLE",
  "INCOMPATIBLE_STORE",
  "INTERNAL",
];

/**
 * What every mutation may answer with too (`src/board.ts` guards, `src/http/json_mutations.ts`, the
 * audit trail's limit of changes a minute).
 */
const EVERY_MUTATION: readonly ErrorCode[] = [
  "CROSS_ORIGIN",
  "INVALID_PARAM",
  "READ_ONLY",
  "MIGRATION_IN_PROGRESS",
  "OUTCOME_UNKNOWN",
  "AUDIT_UNAVAILABLE",
  "TOO_MANY_ATTEMPTS",
];

/** One media type of an answer. */
type MediaType = { schema: z.ZodType };

/** The content of a 200 answer: a JSON schema, or the media types of a stream or file. */
type OkContent = z.ZodType | Record<string, MediaType>;

/** The methods of a route that changes something: it names the action it records. */
type MutationMethod = Exclude<RouteConfig["method"], "get" | "head">;

/** A route of the API: a {@link RouteConfig} without `responses`, which {@link apiRoute} writes. */
export type ApiRouteConfig =
  & Omit<RouteConfig, "responses" | "method">
  & {
    /** The 200 answer: its JSON schema, or its content by media type. */
    ok: OkContent;
    /** What the 200 answer is; "OK" when absent. */
    okDescription?: string;
    /** 201 when the answer is something made (then `ok` is the 201 answer's, and there is no 200). */
    okStatus?: 201;
    /** Headers of the 200 answer (`X-Total-Count`…). */
    okHeaders?: z.ZodObject;
    /** The JSON schema of a 202 answer: work started, not waited for. */
    accepted?: z.ZodType;
    /** Catalogue codes this route answers with beside the shared ones. */
    errors?: readonly ErrorCode[];
  }
  & (
    | {
      method: "get" | "head";
      audit?: never;
      /** What reading needs permission for, when not everyone who may see the board may (`x-permission`). */
      permission?: PermissionDeclaration;
    }
    | {
      method: MutationMethod;
      /** What the audit trail records for it (the document shows it as `x-audit`). */
      audit: AuditDeclaration;
      permission?: never;
    }
  );

function errorResponses(codes: Iterable<ErrorCode>): RouteConfig["responses"] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = statusOf(code);
    byStatus.set(status, [...byStatus.get(status) ?? [], code]);
  }
  const responses: RouteConfig["responses"] = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[status] = {
      description: codes.join(", "),
      content: { "application/json": { schema: ErrorSchema } },
    };
  }
  return responses;
}

/**
 * A route's definition, with its responses: the 200 answer, its own error
 * codes and the shared ones (a mutation's too; `INVALID_PARAM` for a route
 * that validates anything), 401 under session login, and `default`, an auth
 * hook's own answer.
 */
export function apiRoute<const R extends ApiRouteConfig>(
  config: R & {
    audit?: AuditDeclaration<R["path"]>;
    permission?: PermissionDeclaration<R["path"]>;
  },
):
  & Omit<
    R,
    | "ok"
    | "okDescription"
    | "okStatus"
    | "okHeaders"
    | "accepted"
    | "errors"
    | "audit"
    | "permission"
  >
  & {
    "x-audit"?: R["audit"];
    "x-permission"?: R["permission"];
    responses: {
      200: { description: string; content: Record<string, MediaType> };
      201?: { description: string; content: Record<string, MediaType> };
      202?: { description: string; content: Record<string, MediaType> };
    };
  } {
  const {
    ok,
    okDescription,
    okStatus = 200,
    okHeaders,
    accepted,
    errors = [],
    audit,
    permission,
    ...route
  } = config;
  const mutation = route.method !== "get" && route.method !== "head";
  const validates: readonly ErrorCode[] = route.request ? ["INVALID_PARAM"] : [];
  const content = ok instanceof z.ZodType ? { "application/json": { schema: ok } } : ok;
  return {
    ...route,
    ...audit && { "x-audit": audit },
    ...permission && { "x-permission": permission },
    responses: {
      [okStatus]: {
        description: okDescription ?? (okStatus === 201 ? "Created" : "OK"),
        content,
        ...okHeaders && { headers: okHeaders },
      },
      ...accepted && {
        202: {
          description: "Accepted: started, not waited for",
          content: { "application/json": { schema: accepted } },
        },
      },
      ...errorResponses([
        ...errors,
        ...validates,
        ...EVERY_ROUTE,
        ...mutation ? EVERY_MUTATION : [],
        ...mutation || permission ? ["FORBIDDEN" as const] : [],
      ]),
      401: {
        description: "No session, under session login (`auth.authenticate`).",
        content: { "application/json": { schema: UnauthorizedSchema } },
      },
      default: {
        description: "Under an auth hook (`auth` as a function): whatever the hook answers when " +
          "it turns the request away.",
      },
      ...mutation && {
        413: {
          description: "INVALID_PARAM: the request body is over 1 MiB.",
          content: { "application/json": { schema: ErrorSchema } },
        },
      },
    },
    // The declared type keeps `request` exact (what `c.req.valid()` is typed by) and the 200
    // answer's content; the error answers' types would add nothing a handler returns.
  } as never;
}

/**
 * The parameter a zod issue is about: a body field by its path (`a.b`,
 * `sinks[1]`), a query, path or header parameter by its name (the `id` of
 * `?id=a&id=`, a header by its usual spelling: Hono hands them lowercase),
 * or the part of the request.
 */
function paramOf(path: readonly PropertyKey[], target: string): string {
  if (path.length === 0) return target === "json" ? "body" : target;
  if (target === "json") return fieldPath(path);
  const name = String(path[0]);
  return target === "header" ? name.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase()) : name;
}

/**
 * The hook of every router: a value the schemas refuse is a 400
 * `INVALID_PARAM` naming the parameter (or body field) and what it allows.
 * zod's own messages start "Invalid input: "; the catalogue's start with the
 * name, so that prefix goes.
 */
function refuseInvalid(
  result: { success: boolean; target: string; error?: z.ZodError },
): void {
  if (result.success || !result.error) return;
  const issue = result.error.issues[0];
  const param = paramOf(issue.path, result.target);
  const reason = issue.code === "invalid_type" && issue.expected === "nonoptional"
    ? "is required"
    : issue.message.replace(/^Invalid (input|option|type): /, "");
  throw new BoardError("INVALID_PARAM", `Invalid ${param}: ${reason}`, { param });
}

/** A router whose routes validate through their schemas, refusing as the catalogue does. */
export function apiRouter<E extends Env = Env>(): OpenAPIHono<E> {
  return new Router<E>({ defaultHook: refuseInvalid });
}
