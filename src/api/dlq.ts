/**
 * `GET /dlq`: the dead-letter queue of every task (or one), a page of failed
 * jobs and the failures grouped by error.
 *
 * @module
 */

import { Hono } from "hono";
import type { ApiDeps } from "./deps.ts";
import { requireTask } from "./deps.ts";
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
  });
}
