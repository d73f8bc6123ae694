/**
 * The history's charts: `GET /history/rollups` (a range of buckets of every
 * task, one task or one version of it, at the finest resolution kept over
 * the range) and `GET /history/week` (a task's last 7 days against the 7
 * before). Both read the history's rollups, one bounded read each; a board
 * that records no history answers 404 `HISTORY_OFF`.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { HISTORY_RANGES, type HistoryRange } from "../contract/history_charts.ts";
import { chartPoints, chartWindow, figuresOf, pointsIn, windowAt } from "../history/charts.ts";
import { RESOLUTION_MS } from "../history/rollup.ts";
import type { ApiDeps } from "./deps.ts";
import { historyStoreOf } from "./history.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, oneOfParam, textParam } from "./params.ts";
import { HistoryRollupsSchema, TaskWeekSchema } from "./schema/history_charts.ts";

const tags = ["history"];

const DEFAULT_RANGE: HistoryRange = "24h";

const WEEK_MS = 7 * 86_400_000;

const getRollups = apiRoute({
  method: "get",
  path: "/history/rollups",
  permission: { action: "history.read", taskIn: "query" },
  tags,
  summary: "Arrivals, outcomes and wait/run percentiles per bucket over a range, from the history",
  request: {
    query: z.object({
      task: textParam(256, "One task's (absent: every task's)"),
      version: integerParam({ min: 1, description: "One version of the task's (needs task)" }),
      range: oneOfParam(HISTORY_RANGES).openapi({
        default: DEFAULT_RANGE,
        description: "How far back: minutes up to 24h, hours up to 30d, days for 90d",
      }),
    }).refine((query) => query.version === undefined || query.task !== undefined, {
      path: ["version"],
      error: "needs a task",
    }),
  },
  ok: HistoryRollupsSchema,
  errors: ["HISTORY_OFF"],
});

const getWeek = apiRoute({
  method: "get",
  path: "/history/week",
  permission: { action: "history.read", taskIn: "query" },
  tags,
  summary: "A task's last 7 days against the 7 before, from the history",
  request: {
    query: z.object({ task: textParam(256, "The task (required)") }).refine(
      (query) => query.task !== undefined,
      { path: ["task"], error: "is required" },
    ),
  },
  ok: TaskWeekSchema,
  errors: ["HISTORY_OFF"],
});

/** Routes under `/history` that chart it. */
export function historyChartRoutes({ history, clock }: ApiDeps) {
  return apiRouter()
    .openapi(getRollups, async (c) => {
      const { task, version, range = DEFAULT_RANGE } = c.req.valid("query");
      const store = historyStoreOf(history);
      const asOf = clock();
      const window = chartWindow(range, asOf);
      const read = await store.rollups({ task, version, ...window });
      return c.json({
        asOf,
        range,
        resolution: window.resolution,
        bucketMs: RESOLUTION_MS[window.resolution],
        from: window.from,
        to: window.to,
        task: task ?? null,
        version: version ?? null,
        points: chartPoints(read, window),
        totals: figuresOf(read),
      }, 200);
    })
    .openapi(getWeek, async (c) => {
      const task = c.req.valid("query").task!;
      const store = historyStoreOf(history);
      const asOf = clock();
      // Two weeks of hours in one read (336 buckets), split in two.
      const { resolution, from, to } = windowAt(2 * WEEK_MS, "hour", asOf);
      const read = await store.rollups({ task, resolution, from, to });
      const middle = to - WEEK_MS;
      const current = { from: middle, to, ...figuresOf(pointsIn(read, middle, to)) };
      const before = pointsIn(read, from, middle);
      // A quiet week of this task is held when the history recorded any task then.
      const held = before.length > 0 ||
        (await store.rollups({ resolution, from, to: middle })).length > 0;
      const previous = held ? { from, to: middle, ...figuresOf(before) } : null;
      return c.json({ asOf, task, current, previous }, 200);
    });
}
