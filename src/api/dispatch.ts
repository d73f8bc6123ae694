/**
 * `POST /tasks/{task}/dispatch`: a new job of the task, dispatched through
 * the taskora App (`createBoard(app)` only; see `contract/dispatch.ts`),
 * its data checked against the task's input schema first, idempotent on
 * `Idempotency-Key` as a schedule's trigger is.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { DISPATCH_NEEDS_APP, type DispatchResponse } from "../contract/dispatch.ts";
import { BoardError } from "../errors.ts";
import { bodyOf, jsonBody } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { editedData } from "./jobs.ts";
import { MAX_EDITED_DATA_BYTES } from "../contract/jobs.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { IdempotencyHeaders, TaskPath } from "./params.ts";
import { DispatchSchema } from "./schema/dispatch.ts";

const dispatch = apiRoute({
  method: "post",
  path: "/tasks/{task}/dispatch",
  audit: { action: "job.dispatch", target: "{task}" },
  tags: ["tasks"],
  summary: "Dispatch a new job of the task through the taskora App",
  request: {
    params: TaskPath,
    headers: IdempotencyHeaders,
    body: jsonBody(
      bodyOf({
        data: z.unknown().openapi({
          description: `The job's input, at most ${MAX_EDITED_DATA_BYTES} bytes of JSON, ` +
            "checked against the task's input schema (its Standard Schema) before it is sent",
        }),
        delay: z.number().int().min(0).max(365 * 86_400_000).optional().openapi({
          description: "Milliseconds before it may run",
        }),
        priority: z.number().int().min(0).max(1_000_000).optional(),
        concurrencyKey: z.string().min(1).max(256).optional(),
      }, { required: true }),
      { required: true },
    ),
  },
  ok: DispatchSchema,
  errors: ["INVALID_PARAM", "INVALID_STATE", "IDEMPOTENCY_KEY_REUSED", "TASK_NOT_FOUND"],
});

/** Route `/tasks/{task}/dispatch`. */
export function dispatchRoutes({ source }: ApiDeps) {
  return apiRouter().openapi(dispatch, async (c) => {
    const { task } = c.req.valid("param");
    const key = c.req.valid("header")["idempotency-key"];
    const { delay, priority, concurrencyKey, ...body } = c.req.valid("json");
    if (!source.dispatchJob) throw new BoardError("INVALID_STATE", DISPATCH_NEEDS_APP);
    const data = editedData({ data: body.data });
    const result = await source.dispatchJob(task, { data, delay, priority, concurrencyKey }, key);
    const answer: DispatchResponse = { ok: true, task, ...result };
    return c.json(answer, 200);
  });
}
