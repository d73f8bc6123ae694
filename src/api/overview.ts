/**
 * `GET /overview`: every task's counts and health, the totals, and the store.
 *
 * @module
 */

import { Hono } from "hono";
import type { QueueStats } from "../source/types.ts";
import type { ApiDeps } from "./deps.ts";
import { HEALTH_WINDOW_MINUTES, type TaskHealth, taskHealth } from "./health.ts";

/** Totals across tasks; `delayed` counts retrying jobs too, as taskora's own stats do. */
export type Totals = Omit<QueueStats, "retrying">;

/** The answer of `GET /overview`. */
export interface OverviewResponse {
  tasks: Array<{ name: string; stats: QueueStats; health: TaskHealth }>;
  totals: Totals;
  redis: { version: string; usedMemory: string; uptime: number; connected: boolean };
  /** Milliseconds since the board started. */
  uptime: number;
}

/** Adds up the stats of every task. */
export function totalsOf(stats: Iterable<QueueStats>): Totals {
  const totals: Totals = {
    waiting: 0,
    active: 0,
    delayed: 0,
    failed: 0,
    completed: 0,
    cancelled: 0,
    expired: 0,
  };
  for (const s of stats) {
    totals.waiting += s.waiting;
    totals.active += s.active;
    totals.delayed += s.delayed + s.retrying;
    totals.failed += s.failed;
    totals.completed += s.completed;
    totals.cancelled += s.cancelled;
    totals.expired += s.expired;
  }
  return totals;
}

/** Routes of the overview. */
export function overviewRoutes({ source, startedAt }: ApiDeps): Hono {
  return new Hono().get("/overview", async (c) => {
    const tasks = await source.listTasks();
    const [stats, heads, store, recent] = await Promise.all([
      source.getStats(tasks),
      source.getQueueHeads(tasks),
      source.getStoreInfo(),
      Promise.all(
        tasks.map((task) => source.getThroughput({ task, count: HEALTH_WINDOW_MINUTES })),
      ),
    ]);
    const now = Date.now();
    const body: OverviewResponse = {
      tasks: tasks.map((name, i) => {
        const taskStats = stats.get(name)!;
        const health = taskHealth(taskStats, recent[i], heads.get(name)!, now);
        return { name, stats: taskStats, health };
      }),
      totals: totalsOf(stats.values()),
      redis: {
        version: store.version,
        usedMemory: store.usedMemory,
        uptime: store.uptime,
        connected: store.connected,
      },
      uptime: Date.now() - startedAt,
    };
    return c.json(body);
  });
}
