/**
 * The dead-letter queue of every task (or one): `GET /dlq` gives a page of
 * failed jobs (of one error group, with `?pattern=`) and the failures
 * grouped by error; one job, one group or all can be retried.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { bodyOf, jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { migrationGate } from "../migration/lock_guard.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TotalCountHeader } from "./schema/common.ts";
import { dlqTaskQuery, JobIdPath, pageQuery, patternQuery } from "./schema/params.ts";
import { JobActionSchema } from "./schema/jobs.ts";
import { DeadLettersSchema, DlqRetrySchema } from "./schema/queues.ts";

const tags = ["dlq"];

const listDeadLetters = apiRoute({
  method: "get",
  path: "/dlq",
  tags,
  summary: "A page of failed jobs and the failures grouped by error",
  request: { query: z.object({ ...pageQuery(), task: dlqTaskQuery, pattern: patternQuery }) },
  ok: DeadLettersSchema,
  okHeaders: TotalCountHeader,
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

const retryAll = apiRoute({
  method: "post",
  path: "/dlq/retry-all",
  audit: { action: "dlq.retry-all", taskIn: "query" },
  tags,
  summary: "Retry every failed job (of one task, of one error group)",
  request: {
    query: z.object({ task: dlqTaskQuery }),
    body: jsonBody(bodyOf({
      pattern: z.string().min(1, { error: "must be a group's pattern (a non-empty string)" })
        .optional(),
    })),
  },
  ok: DlqRetrySchema,
  errors: ["TASK_NOT_FOUND"],
});

const retryOne = apiRoute({
  method: "post",
  path: "/dlq/{jobId}/retry",
  audit: { action: "dlq.retry", target: "{jobId}" },
  tags,
  summary: "Retry one failed job",
  request: { params: JobIdPath, body: jsonBody(bodyOf({})) },
  ok: JobActionSchema,
  errors: ["JOB_NOT_FOUND", "INVALID_STATE"],
});

/** Routes under `/dlq`. */
export function deadLetterRoutes({ source, present }: ApiDeps) {
  return apiRouter()
    .openapi(listDeadLetters, async (c) => {
      const { limit, offset, task, pattern } = c.req.valid("query");
      const [page, groups] = await Promise.all([
        source.listDeadLetters(offset, limit, { task, pattern }),
        source.groupDeadLetters(task),
      ]);
      c.header("X-Total-Count", String(page.total));
      return c.json({ total: page.total, jobs: page.jobs.map(present.job), groups }, 200);
    })
    .openapi(retryAll, async (c) => {
      const { pattern } = c.req.valid("json");
      const { task } = c.req.valid("query");
      const gate = migrationGate(source);
      const result = await source.retryAllFailed({ task, pattern }, gate.beforeBatch);
      gate.assertFinished(result.retried);
      return c.json({ ok: true as const, ...result }, 200);
    })
    .openapi(retryOne, async (c) => {
      const { jobId } = c.req.valid("param");
      const retried = await source.retryJob(jobId, { from: ["failed"] });
      return c.json({ ok: true as const, ...retried }, 200);
    });
}
