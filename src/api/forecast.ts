/**
 * `GET /tasks/{task}/forecast`: the task's arrival and completion rates
 * over the last 10 and 60 minutes and where its backlog heads (see
 * `contract/forecast.ts` for how arrivals are derived).
 *
 * @module
 */

import {
  backlogOf,
  FORECAST_WINDOWS,
  type ForecastResponse,
  forecastWindow,
  minuteOf,
} from "../contract/forecast.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath } from "./params.ts";
import { ForecastSchema } from "./schema/forecast.ts";

const getForecast = apiRoute({
  method: "get",
  path: "/tasks/{task}/forecast",
  tags: ["tasks"],
  summary:
    "Arrival and completion rates over the last 10 and 60 minutes, and when the backlog drains",
  request: { params: TaskPath },
  ok: ForecastSchema,
  errors: ["TASK_NOT_FOUND"],
});

const MINUTE = 60_000;

/** Route `/tasks/{task}/forecast`. */
export function forecastRoutes({ source, clock }: ApiDeps) {
  return apiRouter().openapi(getForecast, async (c) => {
    const { task } = c.req.valid("param");
    const now = clock();
    const starts = FORECAST_WINDOWS.map((minutes) => minuteOf(now) - minutes * MINUTE);
    const longest = Math.max(...FORECAST_WINDOWS) + 1;
    // The throughput read refuses an unknown task (TASK_NOT_FOUND).
    const [buckets, stats, samples] = await Promise.all([
      source.getThroughput({ task, count: longest }),
      source.getStats([task]),
      source.readBacklogSamples?.(task, starts) ?? starts.map(() => null),
    ]);
    const backlog = backlogOf(stats.get(task)!);
    const answer: ForecastResponse = {
      task,
      readAt: now,
      backlog,
      windows: FORECAST_WINDOWS.map((minutes, i) => {
        const backlogThen = samples[i];
        if (backlogThen === null) {
          const missing = source.readBacklogSamples
            ? `no backlog sample from ${minutes} min ago: the board's leader takes one a ` +
              "minute while a board runs"
            : "this TaskSource keeps no backlog samples";
          return { minutes, missing };
        }
        const from = starts[i];
        let finished = 0;
        for (const bucket of buckets) {
          if (bucket.timestamp >= from) finished += bucket.completed + bucket.failed;
        }
        return forecastWindow({ minutes, from, backlogThen, finished, backlog, now });
      }),
    };
    return c.json(answer, 200);
  });
}
