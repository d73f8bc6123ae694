/**
 * `GET /tasks/{task}/latency`: how far the task's queue is behind (its
 * oldest waiting job, its most overdue delayed job) and the wait and run
 * percentiles of its newest finished jobs (sample size and age in the answer).
 *
 * @module
 */

import { queueLatency, type TaskLatencyResponse } from "../contract/latency.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath } from "./schema/params.ts";
import { TaskLatencySchema } from "./schema/latency.ts";

const getLatency = apiRoute({
  method: "get",
  path: "/tasks/{task}/latency",
  tags: ["tasks"],
  summary: "How far the task's queue is behind, and its newest finished jobs' wait and run times",
  request: { params: TaskPath },
  ok: TaskLatencySchema,
  errors: ["TASK_NOT_FOUND"],
});

/** Routes under `/tasks/{task}/latency`. */
export function latencyRoutes({ source, latency }: ApiDeps) {
  return apiRouter().openapi(getLatency, async (c) => {
    const { task } = c.req.valid("param");
    // The sample's read refuses an unknown task (TASK_NOT_FOUND); the heads would answer nulls.
    const [sample, snapshots] = await Promise.all([
      latency.sample(task),
      source.getQueueSnapshots([task]),
    ]);
    const body: TaskLatencyResponse = {
      task,
      queue: queueLatency(snapshots.get(task)!.heads, Date.now()),
      sample,
    };
    return c.json(body, 200);
  });
}
