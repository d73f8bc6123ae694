/**
 * `GET /overview`: every task's counts and health, the totals, and the store;
 * with a query, a page of the tasks it filters and sorts (see
 * `contract/task_list.ts`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { HEALTH_WINDOW_MINUTES, idleFor, taskHealth } from "../contract/health.ts";
import { withStalledJobs } from "../contract/stalled_health.ts";
import { HEALTH_EVENT_DEPTH } from "../contract/workers.ts";
import { runningOf, waitedPast } from "../feed/health_reads.ts";
import { queueLatency, RATE_MINUTES, taskRate } from "../contract/latency.ts";
import type { OverviewResponse } from "../contract/overview.ts";
import { totalsOf } from "../contract/totals.ts";
import {
  groupsOf,
  HEALTH_STATUSES,
  healthCounts,
  selectTasks,
  TASK_SORTS,
} from "../contract/task_list.ts";
import type { ApiDeps } from "./deps.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, MAX_LIMIT, oneOfParam, textParam } from "./schema/params.ts";
import { keptRead } from "../kept_read.ts";
import { sharedRead } from "../shared_read.ts";
import { readLivePage, readNeededLive } from "../feed/live_read.ts";
import { jsonAnswer } from "../http/deep_json.ts";
import { overviewJson } from "../http/overview_json.ts";
import { OverviewSchema } from "./schema/overview.ts";

const getOverview = apiRoute({
  method: "get",
  path: "/overview",
  tags: ["board"],
  summary: "Every task's counts and health, the totals, and the store",
  request: {
    query: z.object({
      q: textParam(256, "Tasks whose name contains this, any case"),
      health: oneOfParam(HEALTH_STATUSES),
      prefix: textParam(256, "The tasks of one group (its prefix)"),
      sort: oneOfParam(TASK_SORTS),
      group: oneOfParam(["prefix"]),
      limit: integerParam({
        max: MAX_LIMIT,
        description: "At most this many tasks (all when absent)",
      }),
      offset: integerParam({ fallback: 0 }),
    }),
  },
  ok: OverviewSchema,
  errors: ["INVALID_PARAM", "COUNTING"],
});

/**
 * Routes of the overview: from the leader's live state while it is fresh
 * (its index and the page's rows: a few store reads whatever the number of
 * tasks), else read directly. Each overview notes the feed's need, so the
 * leader keeps that state; the first on a board whose feed it starts waits
 * for the feed's first pass (see `readNeededLive`).
 */
export function overviewRoutes(
  { source, store: boardStore, startedAt, options, clock, feed, ownChanges }: ApiDeps,
) {
  // Redis's version, memory and uptime, read once a stats interval for every overview (two INFOs
  // were half an overview's commands): as old as the live state's figures may be, the uptime
  // counted on from the read.
  const storeInfo = keptRead(() => source.getStoreInfo(), options.statsInterval, clock);
  const storeSummary = async (): Promise<OverviewResponse["redis"]> => {
    const { value: { version, usedMemory, uptime, connected }, readAt } = await storeInfo();
    return {
      version,
      usedMemory,
      uptime: uptime + Math.floor((clock() - readAt) / 1000),
      connected,
    };
  };
  // The same answer for everyone: overviews asked at once share one read.
  const read = sharedRead(async (): Promise<
    Omit<OverviewResponse, "matched" | "healthCounts" | "redis">
  > => {
    const tasks = await source.listTasks();
    const [snapshots, recent] = await Promise.all([
      source.getQueueSnapshots(tasks),
      // One read serves the rate sparkline and, from its last minutes, the health.
      source.getThroughputByTask(tasks, { count: RATE_MINUTES }),
    ]);
    const now = clock();
    // noProgress: one bounded stream read, in one batch, per task whose next job waited past
    // the idle limit; before that, no job waited long enough to say no worker takes them
    // (and reading every waiting task's stream made a 1,000-task overview 5 × slower).
    const stalled = tasks.filter((name) =>
      waitedPast(snapshots.get(name)!, now, options.health.maxIdleMs)
    );
    const activity = stalled.length > 0 && source.readStreams
      ? await source.readStreams({ kind: "activity", tasks: stalled, depth: HEALTH_EVENT_DEPTH })
      : new Map();
    const running = await runningOf(
      source,
      stalled,
      (name) =>
        snapshots.get(name)!.stats.active > 0 &&
        (idleFor(activity.get(name), now) ?? 0) > options.health.maxIdleMs,
    );
    const retryingAsOf = source.retryingAsOf(tasks);
    return {
      tasks: tasks.map((name) => {
        const { stats: taskStats, heads: taskHeads, stalled: taskStalled } = snapshots.get(name)!;
        const minutes = recent.get(name)!;
        const health = withStalledJobs(
          taskHealth(
            taskStats,
            minutes.slice(-HEALTH_WINDOW_MINUTES),
            taskHeads,
            now,
            options.health.maxWaitMs,
            {
              ms: idleFor(activity.get(name), now),
              maxMs: options.health.maxIdleMs,
              running: running.get(name),
            },
          ),
          taskStalled,
          taskStats.active,
        );
        return {
          name,
          stats: taskStats,
          retryingAsOf: retryingAsOf.get(name) ?? null,
          health,
          latency: queueLatency(taskHeads, now),
          rate: taskRate(minutes),
        };
      }),
      totals: totalsOf([...snapshots.values()].map(({ stats }) => stats)),
      asOf: now,
      uptime: Date.now() - startedAt,
    };
  });
  return apiRouter().openapi(getOverview, async (c) => {
    const asked = c.req.valid("query");
    // Asked beside the tasks' figures, not after them: the live state's page is then two round
    // trips, not three. Its failure is answered where it is awaited.
    const redis = storeSummary();
    redis.catch(() => {});
    const store = boardStore.feed;
    const live = !store
      ? null
      : await readNeededLive(feed, options.statsInterval, (maxAgeMs) =>
        readLivePage(
          store,
          asked,
          clock(),
          maxAgeMs,
          (asOf) => ownChanges.seenBy(asOf),
        ).catch(() => null));
    if (live !== null) {
      const body = { ...live, redis: await redis, uptime: Date.now() - startedAt };
      return jsonAnswer(c, overviewJson(body));
    }
    const { group, ...query } = asked;
    const { tasks: every, ...rest } = await read();
    const { tasks, matched } = selectTasks(every, query);
    const body: OverviewResponse = {
      tasks,
      matched: matched.length,
      healthCounts: healthCounts(every),
      ...rest,
      redis: await redis,
    };
    if (group === "prefix") {
      const { q, health } = query;
      body.groups = groupsOf(selectTasks(every, { q, health }).matched);
    }
    return c.json(body, 200);
  });
}
