/**
 * `GET /tasks/{task}/forecast`: the task's arrival and completion rates
 * over the last 10 and 60 minutes and where its backlog heads (see
 * `contract/forecast.ts` for how arrivals are derived).
 *
 * @module
 */

import { readForecast } from "../tasks/forecast.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { TaskPath } from "./schema/params.ts";
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

/** Route `/tasks/{task}/forecast`. */
export function forecastRoutes({ source, store, clock }: ApiDeps) {
  return apiRouter().openapi(getForecast, async (c) => {
    const { task } = c.req.valid("param");
    return c.json(await readForecast(source, store, task, clock()), 200);
  });
}
