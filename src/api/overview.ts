/**
 * `GET /overview`: every task's counts and health, the totals, and the store.
 *
 * @module
 */

import { HEALTH_WINDOW_MINUTES, idleFor, taskHealth } from "../contract/health.ts";
import { HEALTH_EVENT_DEPTH } from "../contract/workers.ts";
import { queueLatency, RATE_MINUTES, taskRate } from "../contract/latency.ts";
import type { OverviewResponse } from "../contract/overview.ts";
import { totalsOf } from "../contract/totals.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { sharedRead } from "./shared_read.ts";
import { OverviewSchema } from "./schema/overview.ts";

const getOverview = apiRoute({
  method: "get",
  path: "/overview",
  tags: ["board"],
  summary: "Every task's counts and health, the totals, and the store",
  ok: OverviewSchema,
});

/** Routes of the overview. */
export function overviewRoutes({ source, startedAt, options, clock }: ApiDeps) {
  // The same answer for everyone: overviews asked at once share one read.
  const read = sharedRead(async (): Promise<OverviewResponse> => {
    const tasks = await source.listTasks();
    const [snapshots, store, recent] = await Promise.all([
      source.getQueueSnapshots(tasks),
      source.getStoreInfo(),
      // One read serves the rate sparkline and, from its last minutes, the health.
      source.getThroughputByTask(tasks, { count: RATE_MINUTES }),
    ]);
    // noProgress: one bounded stream read per task with jobs waiting, in one batch.
    const waiting = tasks.filter((name) => snapshots.get(name)!.stats.waiting > 0);
    const activity = waiting.length > 0 && source.getTaskActivity
      ? await source.getTaskActivity(waiting, HEALTH_EVENT_DEPTH)
      : new Map();
    const now = clock();
    const asOf = source.retryingAsOf(tasks);
    return {
      tasks: tasks.map((name) => {
        const { stats: taskStats, heads: taskHeads } = snapshots.get(name)!;
        const minutes = recent.get(name)!;
        const health = taskHealth(
          taskStats,
          minutes.slice(-HEALTH_WINDOW_MINUTES),
          taskHeads,
          now,
          options.health.maxWaitMs,
          { ms: idleFor(activity.get(name), now), maxMs: options.health.maxIdleMs },
        );
        return {
          name,
          stats: taskStats,
          retryingAsOf: asOf.get(name) ?? null,
          health,
          latency: queueLatency(taskHeads, now),
          rate: taskRate(minutes),
        };
      }),
      totals: totalsOf([...snapshots.values()].map(({ stats }) => stats)),
      redis: {
        version: store.version,
        usedMemory: store.usedMemory,
        uptime: store.uptime,
        connected: store.connected,
      },
      uptime: Date.now() - startedAt,
    };
  });
  return apiRouter().openapi(getOverview, async (c) => c.json(await read(), 200));
}
