/**
 * The audit middleware: around every mutation route, one place records who
 * did what, on what, how many, when, and the outcome (the error code of a
 * refusal included). No mutation acts without its entry: the entry is
 * written before the route runs (outcome `pending`), and when the store
 * refuses it the request is answered 503 `AUDIT_UNAVAILABLE` and nothing is
 * done. The outcome replaces it while the answer goes out (a store pausing
 * writes must not hold back, or time out, the answer of the change it
 * already made); one the store refuses then is written late.
 *
 * @module
 */

import type { Context, MiddlewareHandler } from "hono";
import type { AuditRecord } from "../contract/audit.ts";
import type { Presenter } from "../contract/present.ts";
import { BoardError } from "../errors.ts";
import { ANONYMOUS, type UserEnv } from "../auth/user.ts";
import { auditClient } from "./client.ts";
import type { AuditedAction } from "./actions.ts";
import type { AuditedRoutes } from "./route_actions.ts";
import type { AuditTrail } from "./trail.ts";

/** Options of {@link auditMutations}. */
export interface AuditMutationsOptions {
  /** Where records go. */
  trail: AuditTrail;
  /** Redacts error messages before they are recorded. */
  present: Presenter;
  /** The path the API is mounted at (`/board/api`), stripped to find the route. */
  mountPath: string;
  /** Whether `X-Forwarded-For` names the client (see `auditClient`). */
  trustProxy: boolean;
  /** The action each route declares (`auditedRoutes` of the API). */
  routes: AuditedRoutes;
}

/**
 * Whether an answer says the request changed nothing: a dry run, a retry or
 * clean that found no job, a dispatch or trigger answered with the job an
 * earlier request made. Such a request leaves no entry, so a flood of them
 * cannot push a real action out of the trail.
 */
export function changedNothing(body: Record<string, unknown>): boolean {
  if (body.dryRun === true || body.created === false) return true;
  if (body.retried === 0 || body.removed === 0) return true;
  return body.cancelled === 0 && body.signalled === 0;
}

/** The number of things an answer says it changed. */
function countOf(body: Record<string, unknown>): number {
  for (const field of ["retried", "removed"]) {
    if (typeof body[field] === "number") return body[field] as number;
  }
  if (typeof body.cancelled === "number" && typeof body.signalled === "number") {
    return body.cancelled + body.signalled;
  }
  const operation = body.operation as Record<string, unknown> | undefined;
  if (typeof operation?.total === "number" && typeof operation.done === "number") {
    // A bulk operation started: the jobs it means to act on; one cancelled: those it did.
    return operation.status === "running" ? operation.total : operation.done;
  }
  return body.created === false ? 0 : 1;
}

/** The name a success's answer gives what the route made (see `named`), or null. */
function namedTarget(
  what: AuditedAction,
  body: Record<string, unknown>,
  ok: boolean,
): string | null {
  const name = ok && what.named !== undefined ? body[what.named] : undefined;
  return typeof name === "string" ? name : null;
}

async function answerOf(c: Context): Promise<Record<string, unknown>> {
  try {
    const body = await c.res.clone().json();
    return body !== null && typeof body === "object" ? body : {};
  } catch {
    return {};
  }
}

/**
 * Records every mutation request that reaches it (place it after the
 * read-only guard: a read-only board performs none, and writes no trail).
 *
 * @example
 * ```ts ignore
 * api.use("*", auditMutations({ trail, present, mountPath: "/board/api", trustProxy, routes }));
 * ```
 */
export function auditMutations(options: AuditMutationsOptions): MiddlewareHandler<UserEnv> {
  const { trail, present, mountPath, trustProxy, routes } = options;
  return async function audit(c, next) {
    const path = c.req.path.startsWith(mountPath) ? c.req.path.slice(mountPath.length) : "";
    const what = routes(c.req.method, path);
    if (what === null) return await next();
    c.set("audited", true);
    const user = c.get("user") ?? ANONYMOUS;
    const client = auditClient(c, trustProxy);
    const started: AuditRecord = {
      at: Date.now(),
      user,
      action: what.action,
      target: what.target,
      task: what.task,
      count: null,
      outcome: "pending",
      status: 0,
      code: null,
      detail: null,
      ...c.get("via") && { via: c.get("via") },
    };
    let pending;
    try {
      pending = await trail.begin(started, client);
    } catch (error) {
      // Turned away before it acted: a refusal, recorded by `auditRefusals` within its limit.
      if (error instanceof BoardError && error.code === "TOO_MANY_ATTEMPTS") {
        c.set("audited", false);
      }
      throw error;
    }
    await next();
    const body = await answerOf(c);
    const ok = c.res.status < 400;
    const error = c.error;
    const record: AuditRecord = {
      ...started,
      at: Date.now(),
      target: namedTarget(what, body, ok) ?? started.target,
      task: what.task ?? (typeof body.task === "string" ? body.task : null),
      count: ok ? countOf(body) : null,
      outcome: ok ? "ok" : "error",
      status: c.res.status,
      code: ok ? null : error instanceof BoardError ? error.code : String(body.code ?? "INTERNAL"),
      detail: ok ? null : present.error(typeof body.error === "string" ? body.error : ""),
    };
    // A request that changed nothing: its pending entry goes, and no outcome is written.
    const settled = ok && changedNothing(body)
      ? trail.discard(pending)
      : trail.settle(pending, record, client);
    settled.catch((failure) =>
      console.error("queue-board: cannot record the audit entry", record, failure)
    );
  };
}
