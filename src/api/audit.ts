/**
 * The audit trail: `GET /audit` gives a page newest first, filtered by
 * user, action, task, outcome, time and whether an agent's MCP tool call
 * made it (`via`); `?format=ndjson` streams every
 * matching entry (up to the trail's length) as newline-delimited JSON.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { AUDIT_OUTCOMES, AUDIT_VIAS, type AuditQuery } from "../contract/audit.ts";
import { AUDIT_ACTIONS } from "../audit/actions.ts";
import type { ApiDeps } from "./deps.ts";
import { streamLines } from "../http/line_stream.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, oneOfParam, textParam } from "./schema/params.ts";
import { AuditEntrySchema, AuditSchema } from "./schema/board.ts";

/** Largest page of `GET /audit`. */
const MAX_AUDIT_PAGE = 200;

/** Entries one page of the NDJSON export reads. */
const EXPORT_PAGE = 500;

const STREAM_ID = /^\d{1,15}-\d{1,15}$/;

const AuditQuerySchema = z.object({
  format: oneOfParam(["json", "ndjson"]).openapi({
    description: "ndjson: every matching entry (up to the trail's length) as a download",
  }),
  limit: integerParam({ fallback: 50, min: 1, max: MAX_AUDIT_PAGE }),
  before: textParam(256, "The cursor of the next page (`next` of the last)").refine(
    (before) => before === undefined || STREAM_ID.test(before),
    { error: (issue) => `must be an entry id like "1700000000000-0" (got "${issue.input}")` },
  ),
  from: integerParam({ description: "Entries at or after (ms)" }),
  to: integerParam({ description: "Entries at or before (ms)" }),
  user: textParam(),
  action: textParam().pipe(
    z.string().refine((action) => AUDIT_ACTIONS.includes(action), {
      error: (issue) =>
        `must be one of ${AUDIT_ACTIONS.join(", ")} (got ${JSON.stringify(issue.input)})`,
    }).optional(),
  ),
  task: textParam(),
  outcome: oneOfParam(AUDIT_OUTCOMES),
  via: oneOfParam(AUDIT_VIAS).openapi({
    description: "mcp: only what agents' MCP tool calls did; api: only the others",
  }),
}).refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
  path: ["from"],
  error: "must not be after to",
});

const getAudit = apiRoute({
  method: "get",
  path: "/audit",
  permission: { action: "audit.read" },
  tags: ["board"],
  summary: "The audit trail, newest first, filtered; or all of it as NDJSON",
  request: { query: AuditQuerySchema },
  ok: {
    "application/json": { schema: AuditSchema },
    "application/x-ndjson": {
      schema: AuditEntrySchema.openapi({ description: "One entry a line (format=ndjson)" }),
    },
  },
  errors: ["INVALID_PARAM"],
});

/** The filters and cursor of an audit read, `limit` entries a page (absent filters undefined). */
function auditQuery(
  { format: _format, limit: _limit, ...filters }: z.output<typeof AuditQuerySchema>,
  limit: number,
): AuditQuery {
  return { ...filters, limit };
}

/** `GET /audit` over the board's trail. */
export function auditRoutes({ audit }: ApiDeps) {
  return apiRouter().openapi(getAudit, async (c) => {
    const query = c.req.valid("query");
    if (query.format === "ndjson") {
      const first = auditQuery(query, EXPORT_PAGE);
      return streamLines(c, {
        type: "application/x-ndjson",
        filename: "queue-board-audit.ndjson",
        headers: { "X-Export-Cap": String(audit.maxEntries) },
        failureLine: (error) => `${JSON.stringify({ exportFailed: error })}\n`,
      }, async (write) => {
        let page = await audit.list(first);
        for (let written = 0;;) {
          if (page.entries.length > 0) {
            await write(page.entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
          }
          written += page.entries.length;
          if (page.next === null || written >= audit.maxEntries) return;
          page = await audit.list({ ...first, before: page.next });
        }
      });
    }
    const page = await audit.list(auditQuery(query, query.limit));
    return c.json(
      {
        ...page,
        shared: audit.shared,
        maxEntries: audit.maxEntries,
        maxAgeMs: audit.maxAgeMs,
        actions: AUDIT_ACTIONS,
      },
      200,
    );
  });
}
