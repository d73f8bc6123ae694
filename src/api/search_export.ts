/**
 * `GET /tasks/{task}/jobs/search/export?state=…&<filter>&format=csv|ndjson`:
 * the exact matches of a search (`job_search.ts`) as a file, in list order,
 * each row presented as the state export shows it (error and progress
 * redacted, no payloads). The scan goes slice by slice through the source,
 * holding one slice and a scan slot, writing each match as it is found and
 * stopping at the board's `exportCap` matches (a last line says so) or when the
 * client goes away.
 *
 * The file names its filter: the name is `<task>-<state>-search.<format>`;
 * a CSV starts with one `# search: state=… field=… contains=…` line before
 * its header row, an NDJSON file with `{"search":{"task","state","filter"}}`
 * before its jobs. It needs `export` (declared) and `search` (checked
 * here), and `payload.read` for a filter by data, result or logs.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { SessionEnv } from "../auth/session.ts";
import { actingUser, type UserEnv } from "../auth/user.ts";
import type { JobResponse } from "../contract/jobs.ts";
import { BoardError } from "../errors.ts";
import { csvRow } from "../http/csv.ts";
import type { ApiDeps } from "./deps.ts";
import { type Format, streamExport } from "../exports/export_stream.ts";
import { CSV_COLUMNS, csvOf } from "../exports/job_rows.ts";
import { parseJobFilter } from "../search/job_filter.ts";
import { matchingCandidates } from "../search/job_match.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { formatQuery, stateQuery, TaskPath } from "./schema/params.ts";
import { assertMayFilterBy } from "../auth/payload_access.ts";
import { startSearch } from "../search/start.ts";
import { JobSchema } from "./schema/common.ts";
import { exportAnswer } from "./schema/export.ts";
import { filterQuery } from "./schema/search.ts";

const exportSearch = apiRoute({
  method: "get",
  path: "/tasks/{task}/jobs/search/export",
  permission: { action: "export", task: "{task}" },
  tags: ["tasks"],
  summary: "The jobs a search finds, as CSV or NDJSON",
  description: "Every match of the filter (as `GET /tasks/{task}/jobs/search` takes it), in list " +
    "order, at most `X-Export-Cap`. Needs `search` as well as `export`. The file names its " +
    "filter: a first `# search: …` line in CSV, a first `search` line in NDJSON.",
  request: {
    params: TaskPath,
    query: z.object({ state: stateQuery, ...filterQuery, format: formatQuery }),
  },
  ...exportAnswer({
    csv: `A "# search: …" line, a header row (${CSV_COLUMNS.join(", ")}), then a match a row`,
    ndjson: JobSchema.openapi({
      description: 'One first line `{ "search": { task, state, filter } }`, then a match a line',
    }),
    what: "The matches",
  }),
  errors: ["TASK_NOT_FOUND", "INVALID_STATE"],
});

/** The filter's parameters as given, in the order the search documents them. */
function givenFilter(query: Record<string, string | undefined>): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of Object.keys(filterQuery)) {
    const value = query[name];
    // With a path, `value=` is a value (the empty string); any other empty parameter is not given.
    const empty = value === "" && !(name === "value" && query.path);
    if (value !== undefined && !empty) given[name] = value;
  }
  return given;
}

/** The search export route. */
export function searchExportRoutes(deps: ApiDeps) {
  const { present, options } = deps;
  const cap = options.exportCap;
  return apiRouter<SessionEnv & UserEnv>().openapi(exportSearch, async (c) => {
    const { task } = c.req.valid("param");
    const { state, format = "csv", ...parts } = c.req.valid("query");
    const filter = parseJobFilter((name) => parts[name as keyof typeof parts], options.redact);
    // `export` is the declared permission (checked by the guard); `search` is asked here, as it would be.
    if (!await options.can(actingUser(c), "search", task)) {
      throw new BoardError("FORBIDDEN", `You may not search the jobs of ${task}`, {
        param: "search",
      });
    }
    await assertMayFilterBy(c, options, filter, task);
    const signal = c.req.raw.signal;
    const started = await startSearch(c, deps, {
      task,
      state,
      filter,
      position: null,
      want: cap,
    });
    const { search, release } = started;
    let slice = started.slice;
    const given = givenFilter(parts);
    const line = lineOf(format as Format);
    return streamExport(c, {
      format: format as Format,
      filename: `${task}-${state}-search.${format}`.replace(/[^\w.-]+/g, "_"),
      cap,
    }, async (write) => {
      try {
        if (format === "csv") {
          const named = Object.entries(given).map(([name, value]) => `${name}=${value}`);
          await write(csvRow([["# search:", `state=${state}`, ...named].join(" ")]));
          await write(csvRow(CSV_COLUMNS));
        } else {
          await write(`${JSON.stringify({ search: { task, state, filter: given } })}\n`);
        }
        let written = 0;
        while (true) {
          const rows: string[] = [];
          let cut = false;
          for (const match of matchingCandidates(filter, slice, present)) {
            cut = written + rows.length >= cap;
            if (cut) break;
            rows.push(line(present.job(match.job)));
          }
          if (rows.length > 0) await write(rows.join(""));
          written += rows.length;
          if (written >= cap && (cut || slice.next !== null)) {
            // More of the state may match: the file says where it stopped.
            await write(truncatedLine(format as Format, written, cap));
            return;
          }
          if (slice.next === null || signal.aborted) return;
          slice = await search(task, state, filter, slice.next, cap - written);
        }
      } finally {
        release();
      }
    });
  });
}

function lineOf(format: Format): (job: JobResponse) => string {
  return format === "csv" ? csvOf : (job) => `${JSON.stringify(job)}\n`;
}

function truncatedLine(format: Format, written: number, cap: number): string {
  const note = `truncated: the first ${written} matches (the export cap); more may match`;
  return format === "csv"
    ? csvRow([`# ${note}`])
    : `${JSON.stringify({ truncated: true, exported: written, cap })}\n`;
}
