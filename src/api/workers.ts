/**
 * `GET /tasks/{task}/workers`: when the task's workers last took and
 * finished a job, the live lock holders among its newest active jobs, and
 * the fewest live workers they allow (see `contract/workers.ts`).
 *
 * @module
 */

import { readTaskWorkers } from "../tasks/workers.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath } from "./schema/params.ts";
import { TaskWorkersSchema } from "./schema/workers.ts";

const getTaskWorkers = apiRoute({
  method: "get",
  path: "/tasks/{task}/workers",
  tags: ["tasks"],
  summary: "When the task's workers last took and finished a job, and who holds its locks",
  request: { params: TaskPath },
  ok: TaskWorkersSchema,
  errors: ["TASK_NOT_FOUND"],
});

/** Route `/tasks/{task}/workers`. */
export function workerRoutes({ source, clock }: ApiDeps) {
  return apiRouter().openapi(getTaskWorkers, async (c) => {
    const { task } = c.req.valid("param");
    return c.json(await readTaskWorkers(source, task, clock()), 200);
  });
}
