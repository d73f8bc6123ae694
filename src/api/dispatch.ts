/**
 * `POST /tasks/{task}/dispatch`: a new job of the task, dispatched through
 * the taskora App (`createBoard(app)` only; see `contract/dispatch.ts`),
 * its data checked against the task's input schema first, idempotent on
 * `Idempotency-Key` as a schedule's trigger is. Its delay takes a duration
 * as the board's other fields do; its priority stops where taskora's score
 * stops being exact ({@link MAX_PRIORITY}).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { DISPATCH_NEEDS_APP, type DispatchResponse, MAX_PRIORITY } from "../contract/dispatch.ts";
import { BoardError } from "../errors.ts";
import { bodyOf, jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { durationField } from "./schema/duration_field.ts";
import { editedData } from "../jobs/edited_data.ts";
import { MAX_EDITED_DATA_BYTES } from "../contract/jobs.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { IdempotencyHeaders, TaskPath } from "./schema/params.ts";
import { DispatchSchema } from "./schema/dispatch.ts";

/** The longest delay a dispatch takes: a year. */
const MAX_DELAY_MS = 365 * 86_400_000;

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
        delay: durationField(MAX_DELAY_MS).optional().openapi({
          description: 'How long before it may run: ms, or a duration like "30s", "5m", ' +
            `"2h", "1d" (at most 365 days). Not for a collect task`,
        }),
        priority: z.number().int().min(0).max(MAX_PRIORITY, {
          error: `must be at most ${MAX_PRIORITY}: taskora scores a prioritized job ` +
            "-(priority * 1e13) + its dispatch time, which Redis keeps exact (and in dispatch " +
            "order) only up to 2^53",
        }).optional().openapi({
          description: `Above 0 runs before jobs of lower priority; at most ${MAX_PRIORITY}, ` +
            "where taskora's score stays exact. Not for a collect task",
        }),
        concurrencyKey: z.string().min(1).max(256).optional().openapi({
          description: "The concurrency key the job counts against. Not for a collect task",
        }),
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
