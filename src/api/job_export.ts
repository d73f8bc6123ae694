/**
 * Job lists as files: `GET /tasks/{task}/jobs/export?state=…&format=csv|ndjson`
 * and `GET /dlq/export?task=…&pattern=…&format=…` stream the list page by
 * page through the source (1,000 rows a read), each row presented as the
 * list API shows it (error and progress redacted; no payloads: a job's
 * data and result are `GET /jobs/{id}/payloads/{field}`). At most the
 * board's `exportCap` rows: the cap is in `X-Export-Cap`, the list's size
 * when the export began in `X-Export-Total`, and a cut export ends with a
 * line that says so. A queue that moves while it is read may show a job
 * twice or miss one, as paging it in the UI would.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { JobResponse } from "../contract/jobs.ts";
import type { JobPage } from "../source/types.ts";
import { csvRow } from "../http/csv.ts";
import { type Format, streamExport } from "../exports/export_stream.ts";
import { CSV_COLUMNS, csvOf } from "../exports/job_rows.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { dlqTaskQuery, formatQuery, patternQuery, stateQuery, TaskPath } from "./schema/params.ts";
import { JobSchema } from "./schema/common.ts";
import { exportAnswer } from "./schema/export.ts";

/** Rows one read of the source gives. */
const PAGE = 1000;

/** The answer: a file in either format, its size and the cap in headers. */
const exportContent = {
  ...exportAnswer({
    csv: `A header row (${CSV_COLUMNS.join(", ")}), then a job a row`,
    ndjson: JobSchema.openapi({ description: "One job a line" }),
    what: "The list",
    headers: {
      "X-Export-Total": z.string().openapi({
        description: "The list's size when the export began",
      }),
    },
  }),
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"] as const,
};

const exportTaskJobs = apiRoute({
  method: "get",
  path: "/tasks/{task}/jobs/export",
  permission: { action: "export", task: "{task}" },
  tags: ["tasks"],
  summary: "The task's jobs in one state, as CSV or NDJSON",
  request: { params: TaskPath, query: z.object({ state: stateQuery, format: formatQuery }) },
  ...exportContent,
});

const exportDeadLetters = apiRoute({
  method: "get",
  path: "/dlq/export",
  permission: { action: "export", taskIn: "query" },
  tags: ["dlq"],
  summary: "The dead letters (of one task, of one group), as CSV or NDJSON",
  request: {
    query: z.object({ task: dlqTaskQuery, pattern: patternQuery, format: formatQuery }),
  },
  ...exportContent,
});

/**
 * Streams a list read by `read(offset, limit)`; the first page is read
 * before the answer starts, so an unknown task is still a 404.
 */
async function exportList(
  c: Context,
  { present, options: { exportCap: cap } }: ApiDeps,
  { name, format = "csv" }: { name: string; format?: Format },
  read: (offset: number, limit: number) => Promise<JobPage>,
): Promise<Response> {
  const first = await read(0, PAGE);
  const total = first.total;
  const line = format === "csv" ? csvOf : (job: JobResponse) => `${JSON.stringify(job)}\n`;
  return streamExport(c, {
    format,
    filename: `${name}.${format}`,
    cap,
    headers: { "X-Export-Total": String(total) },
  }, async (write) => {
    if (format === "csv") await write(csvRow(CSV_COLUMNS));
    let page = first;
    let written = 0;
    while (page.jobs.length > 0) {
      const rows = page.jobs.slice(0, cap - written).map(present.job);
      await write(rows.map(line).join(""));
      written += rows.length;
      if (written >= cap || page.jobs.length < PAGE) break;
      page = await read(written, PAGE);
    }
    if (total > cap && written >= cap) {
      const note = `truncated: the first ${cap} of ${total} jobs (the export cap)`;
      await write(
        format === "csv"
          ? csvRow([`# ${note}`])
          : `${JSON.stringify({ truncated: true, exported: written, total, cap })}\n`,
      );
    }
  });
}

/** The export routes. */
export function jobExportRoutes(deps: ApiDeps) {
  const { source } = deps;
  return apiRouter()
    .openapi(exportTaskJobs, (c) => {
      const { task } = c.req.valid("param");
      const { state, format } = c.req.valid("query");
      const name = `${task}-${state}`.replace(/[^\w.-]+/g, "_");
      return exportList(
        c,
        deps,
        { name, format },
        (offset, limit) => source.listJobs(task, state, offset, limit),
      );
    })
    .openapi(exportDeadLetters, (c) => {
      const { task, pattern, format } = c.req.valid("query");
      const name = `dlq${task ? `-${task}` : ""}`.replace(/[^\w.-]+/g, "_");
      return exportList(
        c,
        deps,
        { name, format },
        (offset, limit) => source.listDeadLetters(offset, limit, { task, pattern }),
      );
    });
}
