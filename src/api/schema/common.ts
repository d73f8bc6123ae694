/**
 * Schemas shared by several resources: job states, counts, a job as lists
 * show it, and the `ok: true` of every action.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { ErrorBody } from "../../contract/errors.ts";
import type { JobResponse, LogEntry, LogLine } from "../../contract/jobs.ts";
import type { PayloadSize } from "../../contract/payload.ts";
import { JOB_STATES, type QueueStats } from "../../contract/states.ts";
import type { Totals } from "../../contract/totals.ts";
import { ERROR_CODES } from "../../errors.ts";
import type { Same } from "../../same.ts";

/** A job state. */
export const JobStateSchema = z.enum(JOB_STATES).openapi("JobState");

/** Jobs per state. */
export const QueueStatsSchema = z.record(JobStateSchema, z.number().int()).openapi("QueueStats");
true satisfies Same<z.output<typeof QueueStatsSchema>, QueueStats>;

/** Jobs per state over every task (retrying counted as delayed). */
export const TotalsSchema = z.record(z.enum(JOB_STATES).exclude(["retrying"]), z.number().int())
  .openapi("Totals");
true satisfies Same<z.output<typeof TotalsSchema>, Totals>;

/** Milliseconds since the epoch. */
export const Millis = z.number().int().openapi({ description: "ms since the epoch" });

/** A JSON value of the task's own (data, result, meta): any shape. */
export const AnyJson = z.unknown();

/** How big a payload is, and its start when it is too big to send. */
export const PayloadSizeSchema = z.strictObject({
  bytes: z.number().int(),
  truncated: z.boolean(),
  preview: z.string().optional(),
}).openapi("PayloadSize");
true satisfies Same<z.output<typeof PayloadSizeSchema>, PayloadSize>;

/** A job's progress: a number or an object of the task's. */
export const ProgressSchema = z.union([z.number(), z.record(z.string(), z.unknown()), z.null()]);

/** A job as lists show it (no data or result). */
export const JobSchema = z.strictObject({
  id: z.string(),
  task: z.string(),
  state: JobStateSchema,
  error: z.string().nullable(),
  progress: ProgressSchema,
  attempt: z.number().int(),
  maxAttempts: z.number().int(),
  version: z.number().int(),
  priority: z.number(),
  cancelReason: z.string().nullable(),
  stalledCount: z.number().int(),
  workflow: z.strictObject({ id: z.string(), nodeIndex: z.number().int() }).nullable(),
  timestamps: z.strictObject({
    created: Millis,
    processed: Millis.nullable(),
    finished: Millis.nullable(),
    runAt: Millis.nullable(),
    cancelled: Millis.nullable(),
    expireAt: Millis.nullable(),
  }),
  timeline: z.array(z.strictObject({ state: z.string(), at: Millis })),
}).openapi("Job");
true satisfies Same<z.output<typeof JobSchema>, JobResponse>;

/** A log line as stored. */
const logEntry = {
  level: z.string(),
  message: z.string(),
  meta: z.record(z.string(), z.unknown()).optional(),
  timestamp: Millis,
};
true satisfies Same<z.output<z.ZodObject<typeof logEntry>>, LogEntry>;

/** A log line as the API sends it: its index, and its meta's size when left out. */
export const LogLineSchema = z.strictObject({
  ...logEntry,
  index: z.number().int(),
  metaSize: PayloadSizeSchema.optional(),
}).openapi("LogLine");
true satisfies Same<z.output<typeof LogLineSchema>, LogLine>;

/** The body of every error answer (`src/errors.ts`). */
export const ErrorSchema = z.object({
  error: z.string().openapi({ description: "What went wrong, for the operator." }),
  code: z.enum(ERROR_CODES).openapi({ description: "The catalogue code." }),
  param: z.string().optional().openapi({
    description: "The parameter or body field at fault (`INVALID_PARAM`).",
  }),
  done: z.number().int().optional().openapi({
    description: "How many jobs an action on many jobs had acted on when it stopped part way.",
  }),
}).openapi("Error");
true satisfies Same<z.output<typeof ErrorSchema>, ErrorBody>;

/** The header lists that paginate send. */
export const TotalCountHeader = z.object({
  "X-Total-Count": z.string().openapi({ description: "How many items the whole list holds." }),
});
