/**
 * `GET /history/jobs/export?<the search's filters>&format=csv|ndjson`: every
 * job a history search (`GET /history/jobs`) finds, newest first, as a file.
 * Each row is the summary as the search shows it to the user (errors
 * redacted, tasks the user may not `history.read` left out) without its
 * stored input and result, as no export carries payloads. It reads the
 * history a search page at a time, writing each as it comes, and stops at
 * the board's `exportCap` rows (a last line says so) or when the client goes
 * away. It needs `export` (declared) and `history.read` (asked here).
 *
 * @module
 */

import type { SessionEnv } from "../auth/session.ts";
import { actingUser, type UserEnv } from "../auth/user.ts";
import { BoardError } from "../errors.ts";
import { MAX_SEARCH_LIMIT } from "../history/store.ts";
import { csvRow } from "../http/csv.ts";
import type { ApiDeps } from "./deps.ts";
import { historyStoreOf, visibleHistoryPage } from "../history/visible.ts";
import { type Format, streamExport } from "../exports/export_stream.ts";
import { HISTORY_CSV_COLUMNS, historyCsvOf, historyNdjsonOf } from "../exports/history_rows.ts";
import { exportAnswer } from "./schema/export.ts";
import { formatQuery } from "./schema/params.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { HistoryJobSchema, HistoryQuerySchema } from "./schema/history.ts";

const exportHistory = apiRoute({
  method: "get",
  path: "/history/jobs/export",
  permission: { action: "export", taskIn: "query" },
  tags: ["history"],
  summary: "The jobs a history search finds, as CSV or NDJSON",
  description: "Every match of the search (as `GET /history/jobs` takes it, without `cursor` " +
    "and `limit`), newest first, at most `X-Export-Cap`. Needs `history.read` as well as " +
    "`export`. No stored input or result.",
  request: {
    query: HistoryQuerySchema.omit({ cursor: true, limit: true }).extend({ format: formatQuery }),
  },
  ...exportAnswer({
    csv: `A header row (${HISTORY_CSV_COLUMNS.join(", ")}), then a job a row`,
    ndjson: HistoryJobSchema.openapi({ description: "One job's summary a line" }),
    what: "The matches",
  }),
  errors: ["INVALID_PARAM", "HISTORY_OFF"],
});

/** The history export route. */
export function historyExportRoutes(deps: ApiDeps) {
  const { history, options } = deps;
  const cap = options.exportCap;
  return apiRouter<SessionEnv & UserEnv>().openapi(exportHistory, async (c) => {
    historyStoreOf(history);
    const { format = "csv", ...search } = c.req.valid("query");
    // `export` is the declared permission (checked by the guard); `history.read` is asked here.
    if (!await options.can(actingUser(c), "history.read", search.task ?? "*")) {
      throw new BoardError("FORBIDDEN", "You may not read this history", {
        param: "history.read",
      });
    }
    // The first page is read before the answer starts: a bad field is still a 400.
    let page = await visibleHistoryPage(c, deps, { ...search, limit: MAX_SEARCH_LIMIT });
    const line = (format as Format) === "csv" ? historyCsvOf : historyNdjsonOf;
    return streamExport(c, {
      format: format as Format,
      filename: `history${search.task ? `-${search.task}` : ""}.${format}`.replace(
        /[^\w.-]+/g,
        "_",
      ),
      cap,
    }, async (write) => {
      if (format === "csv") await write(csvRow(HISTORY_CSV_COLUMNS));
      let written = 0;
      while (true) {
        const rows = page.jobs.slice(0, cap - written);
        if (rows.length > 0) await write(rows.map(line).join(""));
        written += rows.length;
        if (written >= cap && (rows.length < page.jobs.length || page.next !== null)) {
          await write(
            format === "csv"
              ? csvRow([`# truncated: the first ${written} jobs (the export cap); more may match`])
              : `${JSON.stringify({ truncated: true, exported: written, cap })}\n`,
          );
          return;
        }
        if (page.next === null || c.req.raw.signal.aborted) return;
        page = await visibleHistoryPage(c, deps, {
          ...search,
          cursor: page.next,
          limit: MAX_SEARCH_LIMIT,
        });
      }
    });
  });
}
