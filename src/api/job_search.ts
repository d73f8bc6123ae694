/**
 * `GET /tasks/{task}/jobs/search?state=…&<filter>&cursor=…&limit=…`: finds a
 * task's jobs in a state that match a filter (see `job_filter.ts`), as an
 * NDJSON stream of {@link SearchFrame}s. The scan goes slice by slice (one
 * source call, at most 1,000 jobs, each), sends a `progress` line after each
 * slice and a `match` line per match, and stops at `limit` matches (default
 * 50, at most {@link MAX_SEARCH_PAGE}) with an `end` line carrying the
 * cursor that continues it. It holds no more than one slice and writes each
 * match as found; a client that goes away stops the scan before the next
 * slice.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { stream } from "hono/streaming";
import { MAX_SEARCH_PAGE, type SearchFrame, type SearchProgress } from "../contract/job_filter.ts";
import { errorBody } from "../errors.ts";
import type { ApiDeps } from "./deps.ts";
import { encodeCursor, parseCursor, parseJobFilter } from "../search/job_filter.ts";
import { matchingCandidates } from "../search/job_match.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { assertMayFilterBy } from "../auth/payload_access.ts";
import { startSearch } from "../search/start.ts";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { integerParam, stateQuery, TaskPath, textParam } from "./schema/params.ts";
import { filterQuery, SearchFrameSchema } from "./schema/search.ts";
import type { SearchCandidate } from "../source/types.ts";

const searchJobs = apiRoute({
  method: "get",
  path: "/tasks/{task}/jobs/search",
  permission: { action: "search", task: "{task}" },
  tags: ["tasks"],
  summary: "Find the task's jobs in one state that match a filter (NDJSON stream)",
  description: "Scans the state slice by slice: a `progress` line after each slice, a `match` " +
    "line per match, and one last `end` line (with the cursor that continues the search) or " +
    "`error` line. Every part of the filter is optional; those given must all hold. A payload " +
    "condition is `field` with either `contains` (substring, ASCII case ignored) or `path` + " +
    "`value` (the value at a dot path); it matches what the board shows (formatted, redacted).",
  request: {
    params: TaskPath,
    query: z.object({
      state: stateQuery,
      ...filterQuery,
      cursor: textParam(256, "From an `end` line: continues that search"),
      limit: integerParam({ fallback: 50, min: 1, max: MAX_SEARCH_PAGE }),
    }),
  },
  ok: {
    "application/x-ndjson": {
      schema: SearchFrameSchema.openapi({ description: "One frame a line" }),
    },
  },
  okDescription: "A stream of search frames, until `limit` matches or the end of the range",
  errors: ["TASK_NOT_FOUND", "INVALID_STATE"],
});

const line = (frame: SearchFrame) => `${JSON.stringify(frame)}\n`;

/** The search route. */
export function jobSearchRoutes(deps: ApiDeps) {
  const { present, options } = deps;
  return apiRouter<SessionEnv & UserEnv>().openapi(searchJobs, async (c) => {
    const { task } = c.req.valid("param");
    const { state, limit, cursor, ...parts } = c.req.valid("query");
    const query = (name: string) => parts[name as keyof typeof parts];
    const filter = parseJobFilter(query, options.redact);
    await assertMayFilterBy(c, options, filter, task);
    let position = parseCursor(cursor, state);
    const signal = c.req.raw.signal;
    const started = await startSearch(c, deps, { task, state, filter, position, want: limit });
    const { search, release } = started;
    let slice = started.slice;
    const progress: SearchProgress = {
      scanned: position?.scanned ?? 0,
      total: 0,
      found: 0,
      skipped: 0,
    };

    c.header("Content-Type", "application/x-ndjson");
    c.header("Cache-Control", "no-store");
    return stream(c, async (out) => {
      try {
        while (true) {
          const sliceEnd = (position?.scanned ?? 0) + slice.scanned;
          let stop: SearchCandidate | null = null;
          for (const match of matchingCandidates(filter, slice, present)) {
            progress.found++;
            await out.write(line({ type: "match", job: present.job(match.job) }));
            if (progress.found >= limit) {
              stop = match;
              break;
            }
          }
          // A page that fills inside a slice ends just past its last match: how far it
          // got depends on the matches alone (on presented values), never on the
          // candidates a source's prefilter let through.
          if (stop !== null && stop.after.scanned < sliceEnd) {
            position = stop.after;
            progress.scanned = stop.after.scanned;
            progress.skipped += stop.skippedBefore;
          } else {
            position = slice.next;
            progress.scanned = sliceEnd;
            progress.skipped += slice.skipped;
          }
          progress.total = slice.total;
          await out.write(line({ type: "progress", ...progress }));
          if (position === null || progress.found >= limit || signal.aborted || out.aborted) break;
          slice = await search(task, state, filter, position, limit - progress.found);
        }
        if (signal.aborted || out.aborted) return;
        await out.write(line({
          type: "end",
          cursor: position === null ? null : encodeCursor(state, position),
          reason: position === null ? "done" : "page",
          ...progress,
        }));
      } catch (error) {
        const { status, body } = errorBody(error);
        if (status === 500) console.error("queue-board: search failed", error);
        await out.write(line({ type: "error", ...body }));
      } finally {
        release();
      }
    });
  });
}
