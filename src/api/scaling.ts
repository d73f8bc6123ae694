/**
 * `GET /tasks/{task}/scaling`: the task's scaling signal for an autoscaler
 * (KEDA's metrics-api scaler reads it; see `docs/autoscaling.md`): its
 * effective backlog by kind, its oldest wait, its arrival and completion
 * rates (the drain forecast's 10-minute window), its median run time, the
 * workers seen, and the workers suggested for `targetWait`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { ForecastWindow } from "../contract/forecast.ts";
import {
  type BacklogRead,
  DEFAULT_TARGET_WAIT_MS,
  type ScalingResponse,
  suggestWorkers,
} from "../contract/scaling.ts";
import type { TaskSource } from "../source/types.ts";
import type { ApiDeps } from "./deps.ts";
import { durationField } from "./schema/duration_field.ts";
import { readForecast } from "../tasks/forecast.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath } from "./schema/params.ts";
import { ScalingSchema } from "./schema/scaling.ts";
import { readTaskWorkers } from "../tasks/workers.ts";

const DAY_MS = 86_400_000;

const getScaling = apiRoute({
  method: "get",
  path: "/tasks/{task}/scaling",
  tags: ["tasks"],
  summary: "The task's effective backlog by kind, oldest wait, rates and suggested workers",
  request: {
    params: TaskPath,
    query: z.object({
      targetWait: durationField(DAY_MS).refine((ms) => ms >= 1000, {
        error: 'must be at least 1 s, like "60s" or 60000',
      }).optional().openapi({
        description: 'The wait to clear the backlog within (default "60s"; 1 s to a day)',
      }),
    }),
  },
  ok: ScalingSchema,
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

/**
 * The task's backlog by kind; from the counts, for a source that cannot read
 * it by kind: waiting jobs only.
 */
async function backlogKinds(source: TaskSource, task: string, now: number): Promise<BacklogRead> {
  const read = await source.readBacklog?.({ kind: "kinds", task, now });
  if (read) return read;
  const waiting = (await source.getStats([task])).get(task)!.waiting;
  return { kinds: { waiting, prioritized: 0, delayed: 0, held: 0 }, examined: 0, queued: waiting };
}

/** Route `/tasks/{task}/scaling`. */
export function scalingRoutes({ source, store, clock, latency }: ApiDeps) {
  return apiRouter().openapi(getScaling, async (c) => {
    const { task } = c.req.valid("param");
    const targetWaitMs = c.req.valid("query").targetWait ?? DEFAULT_TARGET_WAIT_MS;
    const now = clock();
    // First: it refuses an unknown task (TASK_NOT_FOUND) before anything else is read.
    const forecast = await readForecast(source, store, task, now);
    const [read, snapshots, sample, workers] = await Promise.all([
      backlogKinds(source, task, now),
      source.getQueueSnapshots([task]),
      latency.sample(task),
      readTaskWorkers(source, task, now),
    ]);
    const { kinds } = read;
    const backlogTotal = kinds.waiting + kinds.prioritized + kinds.delayed + kinds.held;
    const oldest = snapshots.get(task)?.heads.oldestWaiting ?? null;
    const window = forecast.windows.find((w): w is ForecastWindow => "arrivalRate" in w) ?? null;
    const runMs = sample.run.percentiles?.p50 ?? null;
    const arrivalRate = window?.arrivalRate ?? null;
    const answer: ScalingResponse = {
      task,
      readAt: now,
      backlog: kinds,
      backlogTotal,
      examined: read.examined,
      queued: read.queued,
      oldestWaitMs: oldest ? Math.max(0, now - oldest.since) : 0,
      arrivalRate,
      completionRate: window?.completionRate ?? null,
      runMs,
      workersSeen: workers.known ? workers.estimate : null,
      targetWaitMs,
      suggestion: runMs === null || arrivalRate === null
        ? null
        : suggestWorkers({ arrivalRate, runMs, backlog: backlogTotal, targetWaitMs }),
    };
    return c.json(answer, 200);
  });
}
