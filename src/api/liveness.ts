/**
 * Liveness at the API (see `contract/liveness.ts`): `GET
 * /tasks/{task}/liveness?id=…&id=…` (the locks of the named jobs, at most a
 * page of them, and the task's stalled set) and `GET /scheduler` (the
 * scheduler leader lock). A source that cannot read them answers
 * `known: false` with the reason.
 *
 * @module
 */

import { Hono } from "hono";
import { invalidParam } from "../errors.ts";
import {
  type LivenessUnknown,
  MAX_LIVENESS_IDS,
  type SchedulerLeadershipResponse,
  type TaskLiveness,
  type TaskLivenessResponse,
} from "../contract/liveness.ts";
import type { ApiDeps } from "./deps.ts";
import { jobIdParam } from "./jobs.ts";

const UNREAD: LivenessUnknown = {
  known: false,
  reason: "this TaskSource does not read job locks, stalled sets or the scheduler lock",
};

/** The `id` parameters: 0 to {@link MAX_LIVENESS_IDS} job ids. */
function idsParam(raw: string[] | undefined): string[] {
  const ids = raw ?? [];
  if (ids.length > MAX_LIVENESS_IDS) {
    throw invalidParam("id", `at most ${MAX_LIVENESS_IDS} job ids (got ${ids.length})`);
  }
  return ids.map(jobIdParam);
}

/** Routes `/tasks/{task}/liveness` and `/scheduler`. */
export function livenessRoutes({ source }: ApiDeps): Hono {
  return new Hono()
    .get("/tasks/:task/liveness", async (c) => {
      const task = c.req.param("task");
      const ids = idsParam(c.req.queries("id"));
      const readAt = Date.now();
      let liveness: TaskLiveness = UNREAD;
      if (source.getTaskLiveness) liveness = await source.getTaskLiveness(task, ids);
      else await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
      return c.json({ task, readAt, ...liveness } satisfies TaskLivenessResponse);
    })
    .get("/scheduler", async (c) => {
      const readAt = Date.now();
      const leadership = source.getSchedulerLeadership
        ? await source.getSchedulerLeadership()
        : UNREAD;
      return c.json({ readAt, ...leadership } satisfies SchedulerLeadershipResponse);
    });
}
