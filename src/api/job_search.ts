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

import { Hono } from "hono";
import { stream } from "hono/streaming";
import { MAX_SEARCH_PAGE, type SearchFrame, type SearchProgress } from "../contract/job_filter.ts";
import { BoardError, errorBody, invalidParam } from "../errors.ts";
import type { ApiDeps } from "./deps.ts";
import { encodeCursor, parseCursor, parseJobFilter } from "./job_filter.ts";
import { matchesOf } from "./job_match.ts";
import { integerParam, stateParam } from "./params.ts";

const line = (frame: SearchFrame) => `${JSON.stringify(frame)}\n`;

/** The search route. */
export function jobSearchRoutes({ source, present, options }: ApiDeps): Hono {
  return new Hono().get("/tasks/:task/jobs/search", async (c) => {
    const task = c.req.param("task");
    const query = (name: string) => c.req.query(name);
    const state = stateParam(query("state"));
    const filter = parseJobFilter(query, options.redact);
    let position = parseCursor(query("cursor"), state);
    const limit = integerParam("limit", query("limit"), 50, MAX_SEARCH_PAGE);
    if (limit === 0) throw invalidParam("limit", "must be at least 1 (got 0)");
    if (!source.searchJobs) {
      throw new BoardError("INVALID_STATE", "This task source cannot search jobs");
    }
    const search = source.searchJobs.bind(source);
    const signal = c.req.raw.signal;
    // The first slice is read before the answer starts: an unknown task is still a 404.
    let slice = await search(task, state, filter, position, limit);
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
          progress.scanned += slice.scanned;
          progress.skipped += slice.skipped;
          progress.total = slice.total;
          for (const job of matchesOf(filter, slice, present)) {
            progress.found++;
            await out.write(line({ type: "match", job: present.job(job) }));
          }
          position = slice.next;
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
      }
    });
  });
}
