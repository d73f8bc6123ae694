/**
 * The REST API under `{basePath}/api`: one Hono app assembled from one route
 * file per resource.
 *
 * @module
 */

import { Hono } from "hono";
import { routeFallback } from "../route_fallback.ts";
import { configRoutes } from "./config.ts";
import { deadLetterRoutes } from "./dlq.ts";
import type { ApiDeps } from "./deps.ts";
import { eventRoutes } from "./events.ts";
import { jobRoutes } from "./jobs.ts";
import { overviewRoutes } from "./overview.ts";
import { scheduleRoutes } from "./schedules.ts";
import { taskRoutes } from "./tasks.ts";
import { throughputRoutes } from "./throughput.ts";
import { workflowRoutes } from "./workflows.ts";

/**
 * Builds the API routes (relative to `/api`, mounted at `{basePath}/api`).
 * A path that is no route answers 404 `NOT_FOUND`; a route asked with a
 * method it does not take answers 405 `METHOD_NOT_ALLOWED` with `Allow`.
 */
export function createApi(deps: ApiDeps): Hono {
  const api = new Hono();
  for (
    const routes of [
      overviewRoutes,
      taskRoutes,
      jobRoutes,
      scheduleRoutes,
      workflowRoutes,
      deadLetterRoutes,
      throughputRoutes,
      configRoutes,
      eventRoutes,
    ]
  ) {
    api.route("/", routes(deps));
  }
  const { basePath, cors } = deps.options;
  return api.all(
    "*",
    routeFallback(api, {
      mountPath: basePath === "/" ? "/api" : `${basePath}/api`,
      preflight: cors !== null,
      json: true,
    }),
  );
}
