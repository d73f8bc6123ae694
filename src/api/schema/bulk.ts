/**
 * Bulk actions: the count of a dry run, and an operation as it runs and ends.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type {
  BulkAction,
  BulkOperation,
  BulkPreviewResponse,
  BulkStartResponse,
} from "../../contract/bulk.ts";
import { MAX_LISTED_SKIPS } from "../../contract/bulk.ts";
import {
  JOB_FILTER_PARAMS,
  type JobFilterParam,
  type JobFilterQuery,
} from "../../contract/job_filter.ts";
import { oneOf } from "./params.ts";
import { JobStateSchema, Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const ACTIONS = ["retry", "cancel", "promote", "delete"] as const;
true satisfies Same<(typeof ACTIONS)[number], BulkAction>;

/** A bulk action. */
export const BulkActionSchema = oneOf(ACTIONS).openapi("BulkAction");

const count = z.number().int();

/** A filter as the search's query parameters have it. */
export const JobFilterQuerySchema = z.strictObject(
  Object.fromEntries(JOB_FILTER_PARAMS.map((field) => [field, z.string().optional()])) as Record<
    JobFilterParam,
    z.ZodOptional<z.ZodString>
  >,
).openapi("BulkFilter");
true satisfies Same<z.output<typeof JobFilterQuerySchema>, JobFilterQuery>;

/** An operation on many jobs: what it acts on, how far it is, how it ended. */
export const BulkOperationSchema = z.strictObject({
  id: z.string(),
  task: z.string(),
  action: BulkActionSchema,
  selection: z.union([
    z.strictObject({ ids: count }),
    z.strictObject({ state: JobStateSchema }),
    z.strictObject({ state: JobStateSchema, filter: JobFilterQuerySchema }),
  ]).openapi({
    description: "How many ids were given, the state it empties, or that state and a filter",
  }),
  user: z.string().openapi({ description: "Who started it" }),
  runner: z.string().nullable().openapi({
    description: "The board replica running it (or that last ran it): `<host>:<pid>:<4 hex>`",
  }),
  status: z.enum(["running", "done", "cancelled", "failed"]),
  total: count.openapi({
    description: "Jobs it meant to act on when it started; a filter's: the jobs of its range",
  }),
  scanned: count.nullable().openapi({
    description: "Jobs of the range looked at so far (a filter); null otherwise",
  }),
  done: count,
  skipped: count,
  skippedJobs: z.array(z.strictObject({ id: z.string(), state: JobStateSchema.nullable() }))
    .openapi({ description: `The first ${MAX_LISTED_SKIPS} jobs skipped, with their state then` }),
  signalled: count.openapi({ description: "Active jobs asked to stop (cancel)" }),
  startedAt: Millis,
  finishedAt: Millis.nullable(),
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
}).openapi("BulkOperation");
true satisfies Same<z.output<typeof BulkOperationSchema>, BulkOperation>;

/** `dryRun`: how many jobs the action would act on. */
export const BulkPreviewSchema = z.strictObject({
  ok: z.literal(true),
  dryRun: z.literal(true),
  task: z.string(),
  action: BulkActionSchema,
  count,
}).openapi("BulkPreview");
true satisfies Same<z.output<typeof BulkPreviewSchema>, BulkPreviewResponse>;

/** A started operation (202), or one asked to stop. */
export const BulkStartSchema = z.strictObject({
  ok: z.literal(true),
  task: z.string(),
  operation: BulkOperationSchema,
}).openapi("BulkStart");
true satisfies Same<z.output<typeof BulkStartSchema>, BulkStartResponse>;
