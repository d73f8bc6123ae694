/**
 * Liveness at the API (see `contract/liveness.ts`): `GET
 * /tasks/{task}/liveness?id=…&id=…` (the locks of the named jobs, at most a
 * page of them, and the task's stalled jobs) and `GET /scheduler` (the
 * scheduler leader lock). A source that cannot read them answers
 * `known: false` with the reason.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { type LivenessUnknown, MAX_LIVENESS_IDS, type TaskLiveness } from "../contract/liveness.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { jobIdParam, TaskPath } from "./schema/params.ts";
import { SchedulerSchema, TaskLivenessSchema } from "./schema/board.ts";

const UNREAD: LivenessUnknown = {
  known: false,
  reason: "this TaskSource does not read job locks or the scheduler lock",
};

/** The `id` parameters: 0 to {@link MAX_LIVENESS_IDS} job ids. */
const idsQuery = z.union([z.string(), z.array(z.string())]).optional()
  .transform((raw) => raw === undefined ? [] : [raw].flat())
  .pipe(
    z.array(jobIdParam).max(MAX_LIVENESS_IDS, {
      error: (issue) =>
        `at most ${MAX_LIVENESS_IDS} job ids (got ${(issue.input as unknown[]).length})`,
    }),
  )
  .openapi({
    type: "array",
    items: { type: "string" },
    description: `Job ids whose locks to read (\`?id=a&id=b\`, at most ${MAX_LIVENESS_IDS})`,
  });

const getTaskLiveness = apiRoute({
  method: "get",
  path: "/tasks/{task}/liveness",
  tags: ["tasks"],
  summary: "The locks of the named jobs, and the task's active jobs without a lock",
  request: { params: TaskPath, query: z.object({ id: idsQuery }) },
  ok: TaskLivenessSchema,
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

const getScheduler = apiRoute({
  method: "get",
  path: "/scheduler",
  tags: ["schedules"],
  summary: "The scheduler leader lock",
  ok: SchedulerSchema,
});

/** Routes `/tasks/{task}/liveness` and `/scheduler`. */
export function livenessRoutes({ source }: ApiDeps) {
  return apiRouter()
    .openapi(getTaskLiveness, async (c) => {
      const { task } = c.req.valid("param");
      const { id: ids } = c.req.valid("query");
      const readAt = Date.now();
      let liveness: TaskLiveness = UNREAD;
      if (source.readLocks) liveness = await source.readLocks({ kind: "jobs", task, jobIds: ids });
      else await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
      return c.json({ task, readAt, ...liveness }, 200);
    })
    .openapi(getScheduler, async (c) => {
      const readAt = Date.now();
      const leadership = source.readLocks ? await source.readLocks({ kind: "scheduler" }) : UNREAD;
      return c.json({ readAt, ...leadership }, 200);
    });
}
