/**
 * Per-task routes: a page of jobs in one state, the task's counts and
 * storage, its version spread for migrations, and the bulk actions
 * (retry every failed job, clean finished jobs by age).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { FINISHED_STATES } from "../contract/states.ts";
import type { MigrationsResponse, VersionBucket, VersionCounts } from "../contract/tasks.ts";
import { bodyOf, jsonBody } from "./schema/body.ts";
import type { ApiDeps } from "./deps.ts";
import { durationField } from "./schema/duration_field.ts";
import { migrationGate } from "../migration/lock_guard.ts";
import { apiRoute, apiRouter } from "./openapi.ts";
import { integerParam, oneOf, pageQuery, stateQuery, TaskPath } from "./schema/params.ts";
import { JobSchema, TotalCountHeader } from "./schema/common.ts";
import {
  CleanSchema,
  MigrationsSchema,
  RetryAllSchema,
  TaskDefinitionSchema,
  TaskStatsSchema,
} from "./schema/tasks.ts";

const tags = ["tasks"];

const listJobs = apiRoute({
  method: "get",
  path: "/tasks/{task}/jobs",
  tags,
  summary: "A page of the task's jobs in one state",
  request: { params: TaskPath, query: z.object({ state: stateQuery, ...pageQuery() }) },
  ok: z.array(JobSchema),
  okHeaders: TotalCountHeader,
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

const getStats = apiRoute({
  method: "get",
  path: "/tasks/{task}/stats",
  tags,
  summary: "The task's counts per state and its storage",
  request: { params: TaskPath },
  ok: TaskStatsSchema,
  errors: ["TASK_NOT_FOUND"],
});

const getMigrations = apiRoute({
  method: "get",
  path: "/tasks/{task}/migrations",
  tags,
  summary: "The versions of the task's pending jobs; with `since`, whether it can be raised",
  request: {
    params: TaskPath,
    query: z.object({
      since: integerParam({ description: "A proposed `since`: answers canBump and blockedJobs" }),
    }),
  },
  ok: MigrationsSchema,
  errors: ["INVALID_PARAM", "TASK_NOT_FOUND"],
});

const getDefinition = apiRoute({
  method: "get",
  path: "/tasks/{task}/definition",
  tags,
  summary: "The task as the embedding taskora App defines it",
  request: { params: TaskPath },
  ok: TaskDefinitionSchema,
  errors: ["TASK_NOT_FOUND"],
});

const retryAll = apiRoute({
  method: "post",
  path: "/tasks/{task}/retry-all",
  audit: { action: "task.retry-all", task: "{task}" },
  tags,
  summary: "Retry every failed job of the task",
  request: { params: TaskPath, body: jsonBody(bodyOf({})) },
  ok: RetryAllSchema,
  errors: ["TASK_NOT_FOUND"],
});

const clean = apiRoute({
  method: "post",
  path: "/tasks/{task}/clean",
  audit: { action: "task.clean", task: "{task}" },
  tags,
  summary: "Remove finished jobs older than a duration (or count them, with dryRun)",
  request: {
    params: TaskPath,
    body: jsonBody(
      bodyOf({
        state: oneOf(FINISHED_STATES),
        olderThan: durationField(),
        dryRun: z.boolean().optional(),
      }, { required: true }),
      { required: true },
    ),
  },
  ok: CleanSchema,
  errors: ["TASK_NOT_FOUND"],
});

function bucketOf(byVersion: VersionCounts): VersionBucket {
  const versions = Object.keys(byVersion).map(Number);
  return { oldest: versions.length ? Math.min(...versions) : null, byVersion };
}

function countBelow(byVersion: VersionCounts, floor: number): number {
  let count = 0;
  for (const [version, n] of Object.entries(byVersion)) {
    if (Number(version) < floor) count += n;
  }
  return count;
}

/** Routes under `/tasks/{task}`. */
export function taskRoutes({ source, present, events }: ApiDeps) {
  return apiRouter()
    .openapi(listJobs, async (c) => {
      const { task } = c.req.valid("param");
      const { state, limit, offset } = c.req.valid("query");
      const page = await source.listJobs(task, state, offset, limit);
      c.header("X-Total-Count", String(page.total));
      return c.json(page.jobs.map(present.job), 200);
    })
    .openapi(getStats, async (c) => {
      const { task } = c.req.valid("param");
      const [stats, storage] = await Promise.all([
        source.getStats([task]),
        source.getTaskStorage(task),
      ]);
      const retryingAsOf = source.retryingAsOf([task]).get(task) ?? null;
      return c.json({ task, ...stats.get(task)!, ...storage, retryingAsOf }, 200);
    })
    .openapi(getMigrations, async (c) => {
      const { task } = c.req.valid("param");
      const { since } = c.req.valid("query");
      const [dist, definition] = await Promise.all([
        source.getVersionDistribution(task),
        source.getTaskDefinition?.(task) ?? null,
      ]);
      const buckets = [dist.queue, dist.delayed, dist.retrying];
      const pendingVersions = buckets.flatMap((b) => Object.keys(b).map(Number));
      // The App's own version when embedded; without it, a guess from the jobs seen.
      const version = definition?.version ?? dist.latestVersion ?? 1;
      const body: MigrationsResponse = {
        version,
        since: definition?.since ?? null,
        queue: bucketOf(dist.queue),
        delayed: bucketOf(dist.delayed),
        retrying: bucketOf(dist.retrying),
        canBumpSince: pendingVersions.length ? Math.min(...pendingVersions) : version,
      };
      if (since !== undefined) {
        // A floor above the version would refuse the jobs the App dispatches now.
        body.canBump = since <= body.canBumpSince && since <= version;
        body.blockedJobs = buckets.reduce((sum, b) => sum + countBelow(b, since), 0);
      }
      return c.json(body, 200);
    })
    .openapi(getDefinition, async (c) => {
      const { task } = c.req.valid("param");
      const definition = source.getTaskDefinition ? await source.getTaskDefinition(task) : null;
      if (definition === null) await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
      return c.json({ task, definition }, 200);
    })
    .openapi(retryAll, async (c) => {
      const { task } = c.req.valid("param");
      const gate = migrationGate(source);
      const result = await source.retryAllFailed({ task }, gate.beforeBatch);
      gate.assertFinished(result.retried);
      return c.json({ ok: true as const, task, ...result }, 200);
    })
    .openapi(clean, async (c) => {
      const { task } = c.req.valid("param");
      const { state, olderThan, dryRun } = c.req.valid("json");
      if (dryRun) {
        const { removed: count } = await source.cleanJobs(task, state, olderThan, { dryRun });
        return c.json(
          { ok: true as const, task, state, olderThan, dryRun: true as const, count },
          200,
        );
      }
      const { removed } = await source.cleanJobs(task, state, olderThan);
      // A clean writes no job event: the stats frames would not reread the task otherwise.
      events.invalidate(task);
      return c.json({ ok: true as const, task, state, olderThan, removed }, 200);
    });
}
