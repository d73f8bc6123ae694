/**
 * The audit trail: `GET /audit` gives a page newest first, filtered by
 * user, action, task, outcome and time; `?format=ndjson` streams every
 * matching entry (up to the trail's length) as newline-delimited JSON.
 *
 * @module
 */

import { Hono } from "hono";
import {
  AUDIT_OUTCOMES,
  type AuditOutcome,
  type AuditQuery,
  type AuditResponse,
} from "../contract/audit.ts";
import { invalidParam } from "../errors.ts";
import { AUDIT_ACTIONS } from "./audit_actions.ts";
import type { ApiDeps } from "./deps.ts";
import { streamLines } from "./line_stream.ts";
import { integerParam } from "./params.ts";

/** Largest page of `GET /audit`. */
export const MAX_AUDIT_PAGE = 200;

/** Entries one page of the NDJSON export reads. */
const EXPORT_PAGE = 500;

const STREAM_ID = /^\d{1,15}-\d{1,15}$/;

function textParam(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  if (raw.length > 256) throw invalidParam(name, "must be at most 256 characters");
  return raw;
}

/** Parses the filters and cursor of an audit read. */
export function auditQuery(query: (name: string) => string | undefined, limit: number): AuditQuery {
  const parsed: AuditQuery = { limit };
  const before = textParam("before", query("before"));
  if (before !== undefined) {
    if (!STREAM_ID.test(before)) {
      throw invalidParam("before", `must be an entry id like "1700000000000-0" (got "${before}")`);
    }
    parsed.before = before;
  }
  const from = query("from");
  if (from !== undefined && from !== "") parsed.from = integerParam("from", from, 0);
  const to = query("to");
  if (to !== undefined && to !== "") parsed.to = integerParam("to", to, 0);
  if (parsed.from !== undefined && parsed.to !== undefined && parsed.from > parsed.to) {
    throw invalidParam("from", "must not be after to");
  }
  const user = textParam("user", query("user"));
  if (user !== undefined) parsed.user = user;
  const action = textParam("action", query("action"));
  if (action !== undefined) {
    if (!AUDIT_ACTIONS.includes(action)) {
      throw invalidParam("action", `must be one of ${AUDIT_ACTIONS.join(", ")} (got "${action}")`);
    }
    parsed.action = action;
  }
  const task = textParam("task", query("task"));
  if (task !== undefined) parsed.task = task;
  const outcome = textParam("outcome", query("outcome"));
  if (outcome !== undefined) {
    if (!(AUDIT_OUTCOMES as readonly string[]).includes(outcome)) {
      throw invalidParam(
        "outcome",
        `must be one of ${AUDIT_OUTCOMES.join(", ")} (got "${outcome}")`,
      );
    }
    parsed.outcome = outcome as AuditOutcome;
  }
  return parsed;
}

/** `GET /audit` over the board's trail. */
export function auditRoutes({ audit }: ApiDeps): Hono {
  return new Hono().get("/audit", (c) => {
    const format = c.req.query("format");
    if (format !== undefined && format !== "json" && format !== "ndjson") {
      throw invalidParam("format", `must be json or ndjson (got "${format}")`);
    }
    if (format === "ndjson") {
      const query = auditQuery((name) => c.req.query(name), EXPORT_PAGE);
      return streamLines(c, {
        type: "application/x-ndjson",
        filename: "queue-board-audit.ndjson",
        headers: { "X-Export-Cap": String(audit.maxEntries) },
        failureLine: (error) => `${JSON.stringify({ exportFailed: error })}\n`,
      }, async (write) => {
        let page = await audit.list(query);
        for (let written = 0;;) {
          if (page.entries.length > 0) {
            await write(page.entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
          }
          written += page.entries.length;
          if (page.next === null || written >= audit.maxEntries) return;
          page = await audit.list({ ...query, before: page.next });
        }
      });
    }
    const limit = integerParam("limit", c.req.query("limit"), 50, MAX_AUDIT_PAGE);
    if (limit === 0) throw invalidParam("limit", "must be at least 1 (got 0)");
    return (async () => {
      const page = await audit.list(auditQuery((name) => c.req.query(name), limit));
      return c.json(
        {
          ...page,
          shared: audit.shared,
          maxEntries: audit.maxEntries,
          actions: AUDIT_ACTIONS,
        } satisfies AuditResponse,
      );
    })();
  });
}
