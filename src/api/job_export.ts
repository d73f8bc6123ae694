/**
 * Job lists as files: `GET /tasks/{task}/jobs/export?state=…&format=csv|ndjson`
 * and `GET /dlq/export?task=…&pattern=…&format=…` stream the list page by
 * page through the source (1,000 rows a read), each row presented as the
 * list API shows it (error and progress redacted; no payloads: a job's
 * data and result are `GET /jobs/{id}/payloads/{field}`). At most
 * {@link EXPORT_CAP} rows: the cap is in `X-Export-Cap`, the list's size
 * when the export began in `X-Export-Total`, and a cut export ends with a
 * line that says so. A queue that moves while it is read may show a job
 * twice or miss one, as paging it in the UI would.
 *
 * @module
 */

import { type Context, Hono } from "hono";
import type { JobResponse } from "../contract/jobs.ts";
import { invalidParam } from "../errors.ts";
import type { JobPage } from "../source/types.ts";
import { csvRow } from "./csv.ts";
import type { ApiDeps } from "./deps.ts";
import { streamLines } from "./line_stream.ts";
import { stateParam } from "./params.ts";

/** Most rows one export writes. */
export const EXPORT_CAP = 100_000;

/** Rows one read of the source gives. */
const PAGE = 1000;

/** The CSV columns, in order. */
export const CSV_COLUMNS = [
  "id",
  "task",
  "state",
  "attempt",
  "maxAttempts",
  "version",
  "priority",
  "created",
  "processed",
  "finished",
  "runAt",
  "cancelled",
  "expireAt",
  "error",
  "cancelReason",
  "stalledCount",
  "progress",
] as const;

type Format = "csv" | "ndjson";

function formatParam(raw: string | undefined): Format {
  if (raw === undefined || raw === "" || raw === "csv") return "csv";
  if (raw === "ndjson") return "ndjson";
  throw invalidParam("format", `must be csv or ndjson (got "${raw}")`);
}

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

function csvOf(job: JobResponse): string {
  const t = job.timestamps;
  return csvRow([
    job.id,
    job.task,
    job.state,
    job.attempt,
    job.maxAttempts,
    job.version,
    job.priority,
    iso(t.created),
    iso(t.processed),
    iso(t.finished),
    iso(t.runAt),
    iso(t.cancelled),
    iso(t.expireAt),
    job.error,
    job.cancelReason,
    job.stalledCount,
    job.progress === null || job.progress === undefined ? null : JSON.stringify(job.progress),
  ]);
}

/**
 * Streams a list read by `read(offset, limit)`; the first page is read
 * before the answer starts, so an unknown task is still a 404.
 */
async function exportList(
  c: Context,
  { present }: ApiDeps,
  name: string,
  read: (offset: number, limit: number) => Promise<JobPage>,
): Promise<Response> {
  const format = formatParam(c.req.query("format"));
  const first = await read(0, PAGE);
  const total = first.total;
  const line = format === "csv" ? csvOf : (job: JobResponse) => `${JSON.stringify(job)}\n`;
  return streamLines(c, {
    type: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
    filename: `${name}.${format}`,
    headers: { "X-Export-Cap": String(EXPORT_CAP), "X-Export-Total": String(total) },
    failureLine: (error) =>
      format === "csv"
        ? csvRow([`# export failed: ${error.error} (${error.code})`])
        : `${JSON.stringify({ exportFailed: error })}\n`,
  }, async (write) => {
    if (format === "csv") await write(csvRow(CSV_COLUMNS));
    let page = first;
    let written = 0;
    while (page.jobs.length > 0) {
      const rows = page.jobs.slice(0, EXPORT_CAP - written).map(present.job);
      await write(rows.map(line).join(""));
      written += rows.length;
      if (written >= EXPORT_CAP || page.jobs.length < PAGE) break;
      page = await read(written, PAGE);
    }
    if (total > EXPORT_CAP && written >= EXPORT_CAP) {
      const note = `truncated: the first ${EXPORT_CAP} of ${total} jobs (the export cap)`;
      await write(
        format === "csv"
          ? csvRow([`# ${note}`])
          : `${JSON.stringify({ truncated: true, exported: written, total, cap: EXPORT_CAP })}\n`,
      );
    }
  });
}

/** The export routes. */
export function jobExportRoutes(deps: ApiDeps): Hono {
  const { source } = deps;
  return new Hono()
    .get("/tasks/:task/jobs/export", (c) => {
      const task = c.req.param("task");
      const state = stateParam(c.req.query("state"));
      return exportList(
        c,
        deps,
        `${task}-${state}`.replace(/[^\w.-]+/g, "_"),
        (offset, limit) => source.listJobs(task, state, offset, limit),
      );
    })
    .get("/dlq/export", (c) => {
      const task = c.req.query("task") || undefined;
      const pattern = c.req.query("pattern");
      if (pattern === "") throw invalidParam("pattern", "must be a group's pattern, not empty");
      return exportList(
        c,
        deps,
        `dlq${task ? `-${task}` : ""}`.replace(/[^\w.-]+/g, "_"),
        (offset, limit) => source.listDeadLetters(offset, limit, task, pattern),
      );
    });
}
