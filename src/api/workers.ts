/**
 * `GET /tasks/{task}/workers`: when the task's workers last took and
 * finished a job, the live lock holders among its newest active jobs, and
 * the fewest live workers they allow (see `contract/workers.ts`).
 *
 * @module
 */

import {
  estimateWorkers,
  lockHolders,
  type TaskWorkersResponse,
  WORKERS_ACTIVE_SAMPLE,
  WORKERS_EVENT_DEPTH,
} from "../contract/workers.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath } from "./params.ts";
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
    const readAt = clock();
    if (!source.getActiveLocks || !source.getTaskActivity) {
      await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
      const reason = "this TaskSource reads no event stream and no job locks; the board reads " +
        "them from Redis, with the App's Redis adapter or a redis:// URL";
      return c.json({ task, readAt, known: false as const, reason }, 200);
    }
    const [{ active, locks }, activity, definition] = await Promise.all([
      source.getActiveLocks(task, WORKERS_ACTIVE_SAMPLE),
      source.getTaskActivity([task], WORKERS_EVENT_DEPTH),
      source.getTaskDefinition?.(task) ?? null,
    ]);
    const holders = lockHolders(locks);
    const answer: TaskWorkersResponse = {
      task,
      readAt,
      known: true,
      activity: activity.get(task)!,
      active,
      sampled: locks.length,
      holders,
      unlocked: locks.filter((lock) => lock.token === null).map((lock) => lock.id),
      estimate: estimateWorkers(
        holders.length,
        definition?.concurrency ?? null,
        locks.length,
        active,
      ),
    };
    return c.json(answer, 200);
  });
}
