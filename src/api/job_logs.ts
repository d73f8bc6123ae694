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

import { z } from "@hono/zod-openapi";
import type { AttemptHistory } from "../contract/attempts.ts";
import { JOB_DETAIL_LOGS, type LogEntry } from "../contract/jobs.ts";
import { countOf } from "../contract/plural.ts";
import { invalidParam } from "../errors.ts";
import { jobNotFound } from "../source/refusals.ts";
import type { LogPage, TaskSource } from "../source/types.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, jobIdParam, JobIdPath, pageQuery, textParam } from "./schema/params.ts";
import { AnyJson, LogLineSchema, TotalCountHeader } from "./schema/common.ts";

/** How many of a job's newest lines a filtered query looks at (taskora trims logs to 10,000). */
const LOG_FILTER_SCAN = 10_000;

const listLogs = apiRoute({
  method: "get",
  path: "/jobs/{jobId}/logs",
  permission: { action: "payload.read", target: "{jobId}" },
  tags: ["jobs"],
  summary: "A page of the job's log; with level or attempt, of the matching newest lines",
  request: {
    params: JobIdPath,
    query: z.object({
      ...pageQuery(JOB_DETAIL_LOGS),
      level: textParam(20, "Only lines of this level (info, warn, error…)").refine(
        (level) => level === undefined || /^[a-z]+$/i.test(level),
        {
          error: (issue) =>
            `must be a log level such as info, warn or error (got "${issue.input}")`,
        },
      ).transform((level) => level?.toLowerCase()),
      attempt: integerParam({ min: 1, description: "Only lines of this attempt" }),
    }),
  },
  ok: z.array(LogLineSchema),
  okHeaders: TotalCountHeader,
  errors: ["INVALID_PARAM", "JOB_NOT_FOUND"],
});

const getLogMeta = apiRoute({
  method: "get",
  path: "/jobs/{jobId}/logs/{index}/meta",
  permission: { action: "payload.read", target: "{jobId}" },
  tags: ["jobs"],
  summary: "One log line's meta, whole",
  request: {
    params: z.object({
      jobId: jobIdParam,
      index: z.string().regex(/^\d+$/, {
        error: (issue) => `must be a non-negative integer (got ${JSON.stringify(issue.input)})`,
      }).transform(Number).openapi({
        type: "integer",
        minimum: 0,
        description: "The line's index",
      }),
    }),
  },
  ok: AnyJson.openapi({ description: "The meta, formatted and redacted; null when none" }),
  errors: ["INVALID_PARAM", "JOB_NOT_FOUND"],
});

/** The attempt a line logged at `at` belongs to, or null when the history cannot say. */
function attemptAt(history: AttemptHistory, at: number): number | null {
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
export function jobLogRoutes({ source, present }: ApiDeps) {
  return apiRouter()
    .openapi(listLogs, async (c) => {
      const { jobId } = c.req.valid("param");
      const { limit, offset, level, attempt } = c.req.valid("query");
      if (level === undefined && attempt === undefined) {
        const page = await source.getJobLogs(jobId, offset, limit);
        if (!page) throw jobNotFound(jobId);
        c.header("X-Total-Count", String(page.total));
        return c.json(present.logs(page.logs, offset), 200);
      }
      const { page, first } = await newestLines(source, jobId);
      const history = attempt === undefined
        ? null
        : await source.readStreams?.({ kind: "attempts", jobId }) ?? null;
      const matches: number[] = [];
      page.logs.forEach((line: LogEntry, i) => {
        if (level !== undefined && line.level.toLowerCase() !== level) return;
        if (attempt !== undefined) {
          if (!history || attemptAt(history, line.timestamp) !== attempt) return;
        }
        matches.push(i);
      });
      const picked = matches.slice(offset, offset + limit);
      c.header("X-Total-Count", String(matches.length));
      c.header("X-Log-Scanned", String(page.logs.length));
      return c.json(picked.map((i) => present.logs([page.logs[i]], first + i)[0]), 200);
    })
    .openapi(getLogMeta, async (c) => {
      const { jobId, index } = c.req.valid("param");
      const page = await source.getJobLogs(jobId, index, 1);
      if (!page) throw jobNotFound(jobId);
      const line = page.logs[0];
      if (!line) {
        throw invalidParam(
          "index",
          `the job's log has ${countOf(page.total, "line")} (got ${index})`,
        );
      }
      return c.json(present.value(line.meta ?? null), 200);
    });
}
