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
import type { Context } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import { HISTORY_RANGES, type HistoryRange } from "../contract/history_charts.ts";
import {
  chartPoints,
  type ChartWindow,
  chartWindow,
  figuresOf,
  mergedPoints,
  pointsIn,
  windowAt,
} from "../history/charts.ts";
import { RESOLUTION_MS, type RollupPoint } from "../history/rollup.ts";
import type { HistoryStore } from "../history/store.ts";
import type { ApiDeps } from "./deps.ts";
import { historyStoreOf } from "../history/visible.ts";
import { tasksAllowed } from "../auth/task_filter.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, oneOfParam, textParam } from "./schema/params.ts";
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

/**
 * The rollups of every task over `window` as the request's user may read
 * them: the store's total (one read) when `can` allows `history.read` on
 * every task the source lists, else the sum of the tasks it allows (one
 * read each), so no refused task counts in a chart across every task.
 */
async function everyReadableTask(
  c: Context<SessionEnv & UserEnv>,
  { source, options }: Pick<ApiDeps, "source" | "options">,
  store: HistoryStore,
  window: ChartWindow,
): Promise<RollupPoint[]> {
  const readable = tasksAllowed(c, options, "history.read");
  if (readable === undefined) return await store.rollups(window);
  const tasks = await source.listTasks();
  const allowed = await Promise.all(tasks.map((task) => readable(task)));
  if (allowed.every(Boolean)) return await store.rollups(window);
  const reads = tasks.filter((_, i) => allowed[i]).map((task) =>
    store.rollups({ task, ...window })
  );
  return mergedPoints(await Promise.all(reads));
}

/** Routes under `/history` that chart it. */
export function historyChartRoutes(deps: ApiDeps) {
  const { history, clock } = deps;
  return apiRouter<SessionEnv & UserEnv>()
    .openapi(getRollups, async (c) => {
      const { task, version, range = DEFAULT_RANGE } = c.req.valid("query");
      const store = historyStoreOf(history);
      const asOf = clock();
      const window = chartWindow(range, asOf);
      const read = task === undefined
        ? await everyReadableTask(c, deps, store, window)
        : await store.rollups({ task, version, ...window });
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
