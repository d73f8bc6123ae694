/**
 * The alerts at the API: `GET /alerts` (every rule with its state, the
 * sinks by name, the silences) and `GET /alerts/history` (the notices sent
 * and what became of them). A board without the `alerts` option still
 * answers, with nothing. Reading needs no action of its own: rule names,
 * figures and counts, no job's payload.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { DEFAULT_EVALUATE_EVERY_MS } from "../alerts/config.ts";
import { filterHistory, filters } from "../alerts/history_filter.ts";
import { alertsOverview } from "../alerts/overview.ts";
import { ALERT_HISTORY_ENTRIES } from "../contract/alerts.ts";
import { epochClock } from "../timers.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, MAX_LIMIT, oneOfParam, textParam } from "./schema/params.ts";
import { AlertHistorySchema, AlertsOverviewSchema } from "./schema/alerts.ts";

const tags = ["alerts"];

const getAlerts = apiRoute({
  method: "get",
  path: "/alerts",
  tags,
  summary: "Every alert rule with its state, the sinks by name, the silences in force",
  ok: AlertsOverviewSchema,
});

const getHistory = apiRoute({
  method: "get",
  path: "/alerts/history",
  tags,
  summary:
    "The notices sent, newest first, with their outcome per sink; of one rule, task or state",
  request: {
    query: z.object({
      limit: integerParam({ fallback: 50, min: 1, max: MAX_LIMIT, description: "How many" }),
      rule: textParam(100, "Only the notices of the rule of this name"),
      task: textParam(256, "Only the notices about this task"),
      state: oneOfParam(["firing", "resolved"]).openapi({
        description: "Only firing notices (repeats included) or only resolved ones",
      }),
    }),
  },
  ok: AlertHistorySchema,
});

/** Routes under `/alerts`. */
export function alertRoutes({ store, options, timers }: ApiDeps) {
  // Made on the first request: building the routes reads nothing of the deps.
  let now: (() => number) | undefined;
  return apiRouter()
    .openapi(getAlerts, async (c) => {
      const [status, stored, silences] = await Promise.all([
        store.readAlertStatus(),
        options.alerts ? store.listAlertRules() : [],
        options.alerts ? store.listAlertSilences() : [],
      ]);
      return c.json(
        alertsOverview({
          config: options.alerts,
          stored,
          status,
          silences,
          now: (now ??= epochClock(timers))(),
          defaultEvaluateEveryMs: DEFAULT_EVALUATE_EVERY_MS,
        }),
        200,
      );
    })
    .openapi(getHistory, async (c) => {
      const { limit, ...filter } = c.req.valid("query");
      if (!filters(filter)) {
        return c.json({ entries: await store.listAlertHistory(limit) }, 200);
      }
      // The history is capped: a filter reads it whole (one LRANGE) and keeps the newest matches.
      const entries = await store.listAlertHistory(ALERT_HISTORY_ENTRIES);
      return c.json({ entries: filterHistory(entries, filter, limit) }, 200);
    });
}
