/**
 * The dead-letter queue of every task (or one): `GET /dlq` gives a page of
 * failed jobs (of one error group, with `?pattern=`) and the failures
 * grouped by error; one job, one group or all can be retried.
 *
 * @module
 */

import { Hono } from "hono";
import type { DeadLettersResponse, DlqRetryResponse } from "../contract/dlq.ts";
import type { JobActionResponse } from "../contract/jobs.ts";
import { invalidParam } from "../errors.ts";
import { readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { jobIdParam } from "./jobs.ts";
import { pageParams } from "./params.ts";

/** Routes under `/dlq`. */
export function deadLetterRoutes({ source, present }: ApiDeps): Hono {
  return new Hono().get("/dlq", async (c) => {
    const { limit, offset } = pageParams((name) => c.req.query(name));
    const task = c.req.query("task") || undefined;
    const pattern = c.req.query("pattern");
    if (pattern === "") throw invalidParam("pattern", "must be a group's pattern, not empty");
    const [page, groups] = await Promise.all([
      source.listDeadLetters(offset, limit, task, pattern),
      source.groupDeadLetters(task),
    ]);
    c.header("X-Total-Count", String(page.total));
    return c.json(
      { total: page.total, jobs: page.jobs.map(present.job), groups } satisfies DeadLettersResponse,
    );
  })
    .post("/dlq/retry-all", async (c) => {
      const { pattern } = await readJsonObject(c, ["pattern"]);
      if (pattern !== undefined && (typeof pattern !== "string" || pattern === "")) {
        throw invalidParam("pattern", "must be a group's pattern (a non-empty string)");
      }
      const task = c.req.query("task") || undefined;
      const result = pattern === undefined
        ? await source.retryAllFailed(task)
        : await source.retryDeadLetterGroup(pattern, task);
      return c.json({ ok: true, ...result } satisfies DlqRetryResponse);
    })
    .post("/dlq/:jobId/retry", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      await readJsonObject(c, []);
      const retried = await source.retryJob(jobId, ["failed"]);
      return c.json({ ok: true, ...retried } satisfies JobActionResponse);
    });
}
