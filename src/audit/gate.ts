/**
 * Records the requests turned away before the audit middleware sees them:
 * no session (401), the auth hook's own answer, another origin (403
 * `CROSS_ORIGIN`), what the user may not do (403 `FORBIDDEN`) and too many
 * requests (429), under `/api/*` and at `/metrics` (recorded as
 * `metrics.read`, a wrong bearer token as 401). They go to the trail's
 * refusals, within each client's limit, so a flood of them costs a bounded
 * write rate and never pushes an action out. Under `/auth/*` only
 * cross-origin refusals are recorded here: the login routes record their own.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";
import type { AuditRecord } from "../contract/audit.ts";
import type { Presenter } from "../contract/present.ts";
import { BoardError } from "../errors.ts";
import { ANONYMOUS, type UserEnv } from "../auth/user.ts";
import { ACCESS_REFUSED } from "./actions.ts";
import { auditClient } from "./client.ts";
import type { AuditedRoutes } from "./route_actions.ts";
import type { AuditTrail } from "./trail.ts";

/** Options of {@link auditRefusals}. */
export interface AuditRefusalsOptions {
  /** Where records go. */
  trail: AuditTrail;
  /** Redacts error messages before they are recorded. */
  present: Presenter;
  /** The board's base path (`/board`). */
  basePath: string;
  /** Whether `X-Forwarded-For` names the client (see `auditClient`). */
  trustProxy: boolean;
  /** The action each route declares (`auditedRoutes` of the API). */
  routes: AuditedRoutes;
}

/** The code a refusal is recorded with, or null for an answer that is not one recorded here. */
function refusalCode(
  status: number,
  error: unknown,
  byHook: boolean,
  guarded: boolean,
  bodyCode: unknown,
): string | null {
  if (error instanceof BoardError && error.code === "CROSS_ORIGIN") return error.code;
  if (!guarded) return null;
  if (byHook) return "AUTH_HOOK";
  if (status === 401) return "UNAUTHORIZED";
  if (error instanceof BoardError && error.code === "FORBIDDEN") return error.code;
  if (status === 429) return typeof bodyCode === "string" ? bodyCode : "TOO_MANY_REQUESTS";
  return null;
}

async function bodyCodeOf(response: Response): Promise<unknown> {
  if (!response.headers.get("content-type")?.includes("json")) return undefined;
  try {
    return (await response.clone().json())?.code;
  } catch {
    return undefined;
  }
}

/** What a refused scrape of the metrics was after. */
const METRICS_READ = { action: "metrics.read", target: "*", task: null } as const;

/**
 * Records refusals of the guards before the audit middleware: mount it on
 * `/api/*`, `/auth/*` and `/metrics` before them.
 *
 * @example
 * ```ts ignore
 * const refusals = auditRefusals({ trail, present, basePath: "/board", trustProxy, routes });
 * app.use("/api/*", refusals);
 * app.use("/metrics", refusals);
 * ```
 */
export function auditRefusals(options: AuditRefusalsOptions): MiddlewareHandler<UserEnv> {
  const { trail, present, basePath, trustProxy, routes } = options;
  const base = basePath === "/" ? "" : basePath;
  return async function auditRefusal(c, next) {
    await next();
    if (c.get("audited")) return;
    const path = c.req.path.startsWith(base) ? c.req.path.slice(base.length) : c.req.path;
    const api = path.startsWith("/api/");
    const metrics = path === "/metrics";
    const code = refusalCode(
      c.res.status,
      c.error,
      c.get("refusedByHook") === true,
      api || metrics,
      c.res.status === 429 ? await bodyCodeOf(c.res) : undefined,
    );
    if (code === null) return;
    const what = api
      ? routes(c.req.method, path.slice("/api".length))
      : metrics
      ? METRICS_READ
      : null;
    const record: AuditRecord = {
      at: Date.now(),
      user: c.get("user") ?? ANONYMOUS,
      action: what?.action ?? ACCESS_REFUSED,
      target: what?.target ?? `${c.req.method} ${api ? path.slice("/api".length) : path}`,
      task: what?.task ?? null,
      count: null,
      outcome: "error",
      status: c.res.status,
      code,
      detail: c.error instanceof BoardError ? present.error(c.error.message) : null,
      ...c.get("via") && { via: c.get("via") },
    };
    trail.append(record, auditClient(c, trustProxy)).catch((failure) =>
      console.error("queue-board: cannot record the audit entry", record, failure)
    );
  };
}
