/**
 * Per-task routes: a page of jobs in one state, the task's counts and
 * storage, its version spread for migrations, and the bulk actions
 * (retry every failed job, clean finished jobs by age).
 *
 * @module
 */

import { Hono } from "hono";
import { parseDuration } from "../duration.ts";
import { invalidParam } from "../errors.ts";
import { FINISHED_STATES, type FinishedState } from "../contract/states.ts";
import type {
  CleanPreviewResponse,
  CleanResponse,
  MigrationsResponse,
  RetryAllResponse,
  TaskDefinitionResponse,
  TaskStatsResponse,
  VersionBucket,
  VersionCounts,
} from "../contract/tasks.ts";
import { readJsonObject } from "./body.ts";
import type { ApiDeps } from "./deps.ts";
import { integerParam, pageParams, stateParam } from "./params.ts";

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
export function taskRoutes({ source, present, events }: ApiDeps): Hono {
  return new Hono()
    .get("/tasks/:task/jobs", async (c) => {
      const state = stateParam(c.req.query("state"));
      const { limit, offset } = pageParams((name) => c.req.query(name));
      const task = c.req.param("task");
      const page = await source.listJobs(task, state, offset, limit);
      c.header("X-Total-Count", String(page.total));
      return c.json(page.jobs.map(present.job));
    })
    .get("/tasks/:task/stats", async (c) => {
      const task = c.req.param("task");
      const [stats, storage] = await Promise.all([
        source.getStats([task]),
        source.getTaskStorage(task),
      ]);
      const retryingAsOf = source.retryingAsOf([task]).get(task) ?? null;
      return c.json(
        { task, ...stats.get(task)!, ...storage, retryingAsOf } satisfies TaskStatsResponse,
      );
    })
    .get("/tasks/:task/migrations", async (c) => {
      const task = c.req.param("task");
      const proposed = c.req.query("since");
      const since = proposed === undefined ? null : integerParam("since", proposed, 0);
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
      if (since !== null) {
        // A floor above the version would refuse the jobs the App dispatches now.
        body.canBump = since <= body.canBumpSince && since <= version;
        body.blockedJobs = buckets.reduce((sum, b) => sum + countBelow(b, since), 0);
      }
      return c.json(body);
    })
    .get("/tasks/:task/definition", async (c) => {
      const task = c.req.param("task");
      const definition = source.getTaskDefinition ? await source.getTaskDefinition(task) : null;
      if (definition === null) await source.getTaskStorage(task); // TASK_NOT_FOUND when unknown
      return c.json({ task, definition } satisfies TaskDefinitionResponse);
    })
    .post("/tasks/:task/retry-all", async (c) => {
      const task = c.req.param("task");
      await readJsonObject(c, []);
      return c.json(
        { ok: true, task, ...await source.retryAllFailed(task) } satisfies RetryAllResponse,
      );
    })
    .post("/tasks/:task/clean", async (c) => {
      const task = c.req.param("task");
      const body = await readJsonObject(c, ["state", "olderThan", "dryRun"], { required: true });
      const state = body.state;
      if (typeof state !== "string" || !(FINISHED_STATES as readonly string[]).includes(state)) {
        throw invalidParam(
          "state",
          `must be one of ${FINISHED_STATES.join(", ")} (got ${JSON.stringify(state)})`,
        );
      }
      const olderThan = parseDuration(body.olderThan);
      if (olderThan === null) {
        throw invalidParam(
          "olderThan",
          `must be milliseconds or a duration like "30s", "5m", "2h", "1d" (got ${
            JSON.stringify(body.olderThan)
          })`,
        );
      }
      if (body.dryRun !== undefined && typeof body.dryRun !== "boolean") {
        throw invalidParam("dryRun", `must be true or false (got ${JSON.stringify(body.dryRun)})`);
      }
      const finished = state as FinishedState;
      if (body.dryRun) {
        const count = await source.countCleanable(task, finished, olderThan);
        return c.json(
          {
            ok: true,
            task,
            state: finished,
            olderThan,
            dryRun: true,
            count,
          } satisfies CleanPreviewResponse,
        );
      }
      const { removed } = await source.cleanJobs(task, finished, olderThan);
      // A clean writes no job event: the stats frames would not reread the task otherwise.
      events.invalidate(task);
      return c.json(
        { ok: true, task, state: finished, olderThan, removed } satisfies CleanResponse,
      );
    });
}
