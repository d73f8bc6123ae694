/**
 * The REST API under `{basePath}/api`: one Hono app assembled from one route
 * file per resource.
 *
 * @module
 */

import { Hono } from "hono";
import { auditRoutes } from "./audit.ts";
import { bulkRoutes } from "./bulk.ts";
import { configRoutes } from "./config.ts";
import { deadLetterRoutes } from "./dlq.ts";
import type { ApiDeps } from "./deps.ts";
import { eventRoutes } from "./events.ts";
import { jobExportRoutes } from "./job_export.ts";
import { jobLogRoutes } from "./job_logs.ts";
import { jobSearchRoutes } from "./job_search.ts";
import { jobPayloadRoutes } from "./job_payloads.ts";
import { jobRoutes } from "./jobs.ts";
import { latencyRoutes } from "./latency.ts";
import { livenessRoutes } from "./liveness.ts";
import { migrationLockRoutes } from "./migration_lock.ts";
import { overviewRoutes } from "./overview.ts";
import { scheduleRoutes } from "./schedules.ts";
import { taskRoutes } from "./tasks.ts";
import { throughputRoutes } from "./throughput.ts";
import { workflowRoutes } from "./workflows.ts";

/** Builds the API routes (relative to `/api`). */
export function createApi(deps: ApiDeps): Hono {
  const api = new Hono();
  for (
    const routes of [
      overviewRoutes,
      jobExportRoutes,
      jobSearchRoutes,
      taskRoutes,
      latencyRoutes,
      jobRoutes,
      jobLogRoutes,
      jobPayloadRoutes,
      scheduleRoutes,
      workflowRoutes,
      deadLetterRoutes,
      throughputRoutes,
      configRoutes,
      eventRoutes,
      migrationLockRoutes,
      livenessRoutes,
      auditRoutes,
    ]
  ) {
    api.route("/", routes(deps));
  }
  // Typed with the session user, whom an operation records as its starter.
  api.route("/", bulkRoutes(deps));
  return api;
}
