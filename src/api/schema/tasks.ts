/**
 * Answers about one task: counts and storage, versions, definition, and
 * its bulk actions.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { FINISHED_STATES } from "../../contract/states.ts";
import type {
  CleanPreviewResponse,
  CleanResponse,
  MigrationsResponse,
  RetryAllResponse,
  TaskDefinitionResponse,
  TaskStatsResponse,
} from "../../contract/tasks.ts";
import { JobStateSchema, Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const count = z.number().int();
const orNull = <T extends z.ZodType>(schema: T) => schema.nullable();

/** A task's counts per state, its storage, and when the retrying count was read. */
export const TaskStatsSchema = z.strictObject({
  task: z.string(),
  ...Object.fromEntries(JobStateSchema.options.map((state) => [state, count])) as Record<
    z.output<typeof JobStateSchema>,
    typeof count
  >,
  keyCount: count,
  memoryBytes: count,
  retryingAsOf: orNull(Millis),
}).openapi("TaskStats");
true satisfies Same<z.output<typeof TaskStatsSchema>, TaskStatsResponse>;

const VersionBucketSchema = z.strictObject({
  oldest: orNull(z.number().int()),
  byVersion: z.record(z.string(), count),
}).openapi("VersionBucket");

/** The task's versions of pending jobs, and whether `since` can be raised. */
export const MigrationsSchema = z.strictObject({
  version: z.number().int(),
  since: orNull(z.number().int()),
  queue: VersionBucketSchema,
  delayed: VersionBucketSchema,
  retrying: VersionBucketSchema,
  canBumpSince: z.number().int(),
  canBump: z.boolean().optional(),
  blockedJobs: count.optional(),
}).openapi("Migrations");
true satisfies Same<z.output<typeof MigrationsSchema>, MigrationsResponse>;

const num = orNull(z.number());

/** The task as the embedding App defines it (null without an App). */
export const TaskDefinitionSchema = z.strictObject({
  task: z.string(),
  definition: orNull(z.strictObject({
    name: z.string(),
    version: z.number().int(),
    since: z.number().int(),
    migrations: count,
    concurrency: num,
    timeout: num,
    retry: orNull(z.strictObject({
      attempts: num,
      backoff: orNull(z.string()),
      delay: num,
      maxDelay: num,
      jitter: orNull(z.boolean()),
    })),
    stall: orNull(z.strictObject({ interval: num, maxCount: num })),
    singleton: z.boolean(),
    concurrencyLimit: num,
    ttl: orNull(z.strictObject({ maxMs: z.number(), onExpire: z.string() })),
    collect: orNull(
      z.strictObject({ delayMs: z.number(), maxSize: z.number(), maxWaitMs: z.number() }),
    ),
    hasHandler: z.boolean(),
    schedules: z.array(z.string()),
    inputSchema: z.boolean(),
  })),
}).openapi("TaskDefinition");
true satisfies Same<z.output<typeof TaskDefinitionSchema>, TaskDefinitionResponse>;

/** How many failed jobs of the task were retried. */
export const RetryAllSchema = z.strictObject({
  ok: z.literal(true),
  task: z.string(),
  retried: count,
}).openapi("RetryAll");
true satisfies Same<z.output<typeof RetryAllSchema>, RetryAllResponse>;

const cleanSummary = {
  ok: z.literal(true),
  task: z.string(),
  state: z.enum(FINISHED_STATES),
  olderThan: z.number().int(),
};

/** What a clean removed, or (`dryRun`) would remove. */
export const CleanSchema = z.union([
  z.strictObject({ ...cleanSummary, dryRun: z.literal(true), count }),
  z.strictObject({ ...cleanSummary, removed: count }),
]).openapi("Clean");
true satisfies Same<z.output<typeof CleanSchema>, CleanPreviewResponse | CleanResponse>;
