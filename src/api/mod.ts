/**
 * The REST API under `{basePath}/api`: one Hono app assembled from one route
 * file per resource.
 *
 * @module
 */

import type { OpenAPIHono } from "@hono/zod-openapi";
import { alertRuleRoutes } from "./alert_rules.ts";
import { alertSilenceRoutes } from "./alert_silences.ts";
import { alertTestRoutes } from "./alert_test_notice.ts";
import { alertRoutes } from "./alerts.ts";
import { auditRoutes } from "./audit.ts";
import { bulkRoutes } from "./bulk.ts";
import { configRoutes } from "./config.ts";
import { deadLetterRoutes } from "./dlq.ts";
import type { ApiDeps } from "./deps.ts";
import { eventRoutes } from "./events.ts";
import { historyRoutes } from "./history.ts";
import { historyChartRoutes } from "./history_charts.ts";
import { historyExportRoutes } from "./history_export.ts";
import { jobExportRoutes } from "./job_export.ts";
import { jobLogRoutes } from "./job_logs.ts";
import { jobSearchRoutes } from "./job_search.ts";
import { searchExportRoutes } from "./search_export.ts";
import { jobPayloadRoutes } from "./job_payloads.ts";
import { jobRoutes } from "./jobs.ts";
import { jobLookupRoutes } from "./job_lookup.ts";
import { latencyRoutes } from "./latency.ts";
import { livenessRoutes } from "./liveness.ts";
import { diagnosisRoutes } from "./diagnosis.ts";
import { migrationLockRoutes } from "./migration_lock.ts";
import { apiRouter } from "./openapi.ts";
import { documentRoutes } from "./openapi_document.ts";
import { overviewRoutes } from "./overview.ts";
import { scheduleRoutes } from "./schedules.ts";
import { sessionRoutes } from "./sessions.ts";
import { taskRoutes } from "./tasks.ts";
import { throughputRoutes } from "./throughput.ts";
import { workflowRoutes } from "./workflows.ts";
import { workerRoutes } from "./workers.ts";
import { forecastRoutes } from "./forecast.ts";
import { scalingRoutes } from "./scaling.ts";
import { mechanicsRoutes } from "./mechanics.ts";
import { dispatchRoutes } from "./dispatch.ts";

/**
 * Builds the API routes (relative to `/api`), and `GET /openapi.json`, the
 * document of them all (see `openapi.ts` for how a route is written).
 */
export function createApi(deps: ApiDeps): OpenAPIHono {
  const api = apiRouter()
    .route("/", overviewRoutes(deps))
    .route("/", jobExportRoutes(deps))
    .route("/", jobSearchRoutes(deps))
    .route("/", searchExportRoutes(deps))
    .route("/", taskRoutes(deps))
    .route("/", latencyRoutes(deps))
    .route("/", jobLookupRoutes(deps))
    .route("/", jobRoutes(deps))
    .route("/", jobLogRoutes(deps))
    .route("/", jobPayloadRoutes(deps))
    .route("/", historyRoutes(deps))
    .route("/", historyExportRoutes(deps))
    .route("/", scheduleRoutes(deps))
    .route("/", workflowRoutes(deps))
    .route("/", deadLetterRoutes(deps))
    .route("/", throughputRoutes(deps))
    .route("/", historyChartRoutes(deps))
    .route("/", configRoutes(deps))
    .route("/", eventRoutes(deps))
    .route("/", migrationLockRoutes(deps))
    .route("/", livenessRoutes(deps))
    .route("/", diagnosisRoutes(deps))
    .route("/", workerRoutes(deps))
    .route("/", forecastRoutes(deps))
    .route("/", scalingRoutes(deps))
    .route("/", mechanicsRoutes(deps))
    .route("/", dispatchRoutes(deps))
    .route("/", auditRoutes(deps))
    .route("/", bulkRoutes(deps))
    .route("/", sessionRoutes(deps))
    .route("/", alertRoutes(deps))
    .route("/", alertRuleRoutes(deps))
    .route("/", alertSilenceRoutes(deps))
    .route("/", alertTestRoutes(deps));
  return api.route("/", documentRoutes(api, deps.options));
}
