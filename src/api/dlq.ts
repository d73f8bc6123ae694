/**
 * The dead-letter queue of every task (or one): `GET /dlq` gives a page of
 * failed jobs and the failures grouped by error; one or all can be retried.
 *
 * @module
 */

import { Hono } from "hono";
import { readJsonObject } from "./body.ts";
import { type ApiDeps, requireTask } from "./deps.ts";
import { jobIdParam } from "./jobs.ts";
import { pageParams } from "./params.ts";

/** Routes under `/dlq`. */
export function deadLetterRoutes({ source, present }: ApiDeps): Hono {
  return new Hono().get("/dlq", async (c) => {
    const { limit, offset } = pageParams((name) => c.req.query(name));
    const task = c.req.query("task") || undefined;
    if (task) await requireTask(source, task);
    const [page, groups] = await Promise.all([
      source.listDeadLetters(offset, limit, task),
      source.groupDeadLetters(task),
    ]);
    c.header("X-Total-Count", String(page.total));
    return c.json({ total: page.total, jobs: page.jobs.map(present.job), groups });
  })
    .post("/dlq/retry-all", async (c) => {
      await readJsonObject(c, []);
      const task = c.req.query("task") || undefined;
      if (task) await requireTask(source, task);
      return c.json({ ok: true, ...await source.retryAllFailed(task) });
    })
    .post("/dlq/:jobId/retry", async (c) => {
      const jobId = jobIdParam(c.req.param("jobId"));
      await readJsonObject(c, []);
      return c.json({ ok: true, ...await source.retryJob(jobId, ["failed"]) });
    });
}
