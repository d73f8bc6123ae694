/**
 * `GET /tasks/{task}/latency`: how far the task's queue is behind (its
 * oldest waiting job, its most overdue delayed job) and the wait and run
 * percentiles of its newest finished jobs (sample size and age in the answer).
 *
 * @module
 */

import { Hono } from "hono";
import { queueLatency, type TaskLatencyResponse } from "../contract/latency.ts";
import type { ApiDeps } from "./deps.ts";

/** Routes under `/tasks/{task}/latency`. */
export function latencyRoutes({ source, latency }: ApiDeps): Hono {
  return new Hono().get("/tasks/:task/latency", async (c) => {
    const task = c.req.param("task");
    // The sample's read refuses an unknown task (TASK_NOT_FOUND); the heads would answer nulls.
    const [sample, heads] = await Promise.all([
      latency.sample(task),
      source.getQueueHeads([task]),
    ]);
    const body: TaskLatencyResponse = {
      task,
      queue: queueLatency(heads.get(task)!, Date.now()),
      sample,
    };
    return c.json(body);
  });
}
