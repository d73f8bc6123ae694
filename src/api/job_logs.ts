/**
 * A job's log: `GET /jobs/{id}/logs` pages it (O(page) by LRANGE), or, with
 * `level` and/or `attempt`, pages the lines that match among its newest
 * {@link LOG_FILTER_SCAN} (taskora keeps no more); `GET
 * /jobs/{id}/logs/{index}/meta` serves one line's meta whole, for a line
 * whose meta the page left out for its size.
 *
 * A line's attempt is not stored: it is the attempt whose end (in the
 * attempt history) comes first at or after the line's time, or the job's
 * attempt now. Lines older than a history that is not complete belong to no
 * known attempt and match no `attempt` filter.
 *
 * @module
 */

import { Hono } from "hono";
import type { AttemptHistory } from "../contract/attempts.ts";
import { JOB_DETAIL_LOGS, type LogEntry } from "../contract/jobs.ts";
import { invalidParam } from "../errors.ts";
import { jobNotFound } from "../source/refusals.ts";
import type { LogPage, TaskSource } from "../source/types.ts";
import type { ApiDeps } from "./deps.ts";
import { jobIdParam } from "./jobs.ts";
import { integerParam, pageParams } from "./params.ts";

/** How many of a job's newest lines a filtered query looks at (taskora trims logs to 10,000). */
export const LOG_FILTER_SCAN = 10_000;

/** A filter of log lines. */
interface LogFilter {
  level?: string;
  attempt?: number;
}

function filterParams(query: (name: string) => string | undefined): LogFilter {
  const filter: LogFilter = {};
  const level = query("level");
  if (level !== undefined && level !== "") {
    if (!/^[a-z]{1,20}$/i.test(level)) {
      throw invalidParam(
        "level",
        `must be a log level such as info, warn or error (got "${level}")`,
      );
    }
    filter.level = level.toLowerCase();
  }
  const attempt = integerParam("attempt", query("attempt"), 0);
  if (query("attempt") && attempt === 0) {
    throw invalidParam("attempt", "must be at least 1 (got 0)");
  }
  if (attempt > 0) filter.attempt = attempt;
  return filter;
}

/** The attempt a line logged at `at` belongs to, or null when the history cannot say. */
export function attemptAt(history: AttemptHistory, at: number): number | null {
  const index = history.attempts.findIndex((attempt) => attempt.at >= at);
  if (index === -1) return history.attempt;
  if (index === 0 && !history.complete) return null;
  return history.attempts[index].attempt;
}

/** The job's newest {@link LOG_FILTER_SCAN} lines and the index of the first. */
async function newestLines(
  source: TaskSource,
  jobId: string,
): Promise<{ page: LogPage; first: number }> {
  const head = await source.getJobLogs(jobId, 0, LOG_FILTER_SCAN);
  if (!head) throw jobNotFound(jobId);
  if (head.total <= LOG_FILTER_SCAN) return { page: head, first: 0 };
  const first = head.total - LOG_FILTER_SCAN;
  const tail = await source.getJobLogs(jobId, first, LOG_FILTER_SCAN);
  if (!tail) throw jobNotFound(jobId);
  return { page: tail, first };
}

/** Routes under `/jobs/{id}/logs`. */
export function jobLogRoutes({ source, present }: ApiDeps): Hono {
  return new Hono()
    .get("/jobs/:jobId/logs", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const query = (name: string) => c.req.query(name);
      const { limit, offset } = pageParams(query, JOB_DETAIL_LOGS);
      const filter = filterParams(query);
      if (filter.level === undefined && filter.attempt === undefined) {
        const page = await source.getJobLogs(jobId, offset, limit);
        if (!page) throw jobNotFound(jobId);
        c.header("X-Total-Count", String(page.total));
        return c.json(present.logs(page.logs, offset));
      }
      const { page, first } = await newestLines(source, jobId);
      const history = filter.attempt === undefined
        ? null
        : await source.getAttemptHistory?.(jobId) ?? null;
      const matches: number[] = [];
      page.logs.forEach((line: LogEntry, i) => {
        if (filter.level !== undefined && line.level.toLowerCase() !== filter.level) return;
        if (filter.attempt !== undefined) {
          if (!history || attemptAt(history, line.timestamp) !== filter.attempt) return;
        }
        matches.push(i);
      });
      const picked = matches.slice(offset, offset + limit);
      c.header("X-Total-Count", String(matches.length));
      c.header("X-Log-Scanned", String(page.logs.length));
      return c.json(
        picked.map((i) => present.logs([page.logs[i]], first + i)[0]),
      );
    })
    .get("/jobs/:jobId/logs/:index/meta", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      const index = integerParam("index", c.req.param("index"), 0);
      const page = await source.getJobLogs(jobId, index, 1);
      if (!page) throw jobNotFound(jobId);
      const line = page.logs[0];
      if (!line) {
        throw invalidParam("index", `the job's log has ${page.total} lines (got ${index})`);
      }
      return c.json(present.value(line.meta ?? null));
    });
}
