/**
 * How far a task's queue is behind, its finished-jobs rate, and the wait and
 * run percentiles of its newest finished jobs.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type {
  DurationSummary,
  QueueLatency,
  TaskLatencyResponse,
  TaskRate,
} from "../../contract/latency.ts";
import { Millis } from "./common.ts";
import type { Same } from "../../same.ts";

const ms = z.number().int();

/** The task's oldest waiting job and most overdue delayed job, at the answer's time. */
export const QueueLatencySchema = z.strictObject({
  oldestWaiting: z.strictObject({ id: z.string(), since: Millis, ageMs: ms }).nullable(),
  mostOverdue: z.strictObject({ id: z.string(), at: Millis, overdueMs: ms }).nullable(),
}).openapi("QueueLatency");
true satisfies Same<z.output<typeof QueueLatencySchema>, QueueLatency>;

/** Finished jobs per minute over the last hour. */
export const TaskRateSchema = z.strictObject({
  from: Millis.openapi({ description: "Start of the first minute (ms)" }),
  bucketMs: ms,
  completed: z.array(z.number().int()),
  failed: z.array(z.number().int()),
}).openapi("TaskRate");
true satisfies Same<z.output<typeof TaskRateSchema>, TaskRate>;

const DurationSummarySchema = z.strictObject({
  count: z.number().int(),
  percentiles: z.strictObject({ p50: z.number(), p95: z.number(), p99: z.number() }).nullable(),
  histogram: z.array(z.number().int()).openapi({
    description: "Counts per bin (upper bounds 10 ms … 1 h), plus one bin for longer ones",
  }),
}).openapi("DurationSummary");
true satisfies Same<z.output<typeof DurationSummarySchema>, DurationSummary>;

/** `GET /tasks/{task}/latency`. */
export const TaskLatencySchema = z.strictObject({
  task: z.string(),
  queue: QueueLatencySchema,
  sample: z.strictObject({
    sampleSize: z.number().int(),
    jobs: z.number().int(),
    from: Millis.nullable(),
    to: Millis.nullable(),
    readAt: Millis,
    maxAgeMs: ms,
    wait: DurationSummarySchema,
    run: DurationSummarySchema,
  }),
}).openapi("TaskLatency");
true satisfies Same<z.output<typeof TaskLatencySchema>, TaskLatencyResponse>;
