/**
 * Answers about one job: in full, its attempts, and its actions.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import type { AttemptHistoryResponse } from "../../contract/attempts.ts";
import type { JobActionResponse, JobDetailResponse, RerunResponse } from "../../contract/jobs.ts";
import { PAYLOAD_FIELDS } from "../../contract/payload.ts";
import {
  AnyJson,
  JobSchema,
  JobStateSchema,
  LogLineSchema,
  Millis,
  PayloadSizeSchema,
} from "./common.ts";
import type { Same } from "../../same.ts";
import { HistoryJobSchema } from "./history.ts";

/** A job in full: its payloads (those over the limit by their size) and newest log lines. */
export const JobDetailSchema = JobSchema.extend({
  data: AnyJson,
  result: AnyJson,
  payloads: z.partialRecord(z.enum(PAYLOAD_FIELDS), PayloadSizeSchema),
  logs: z.array(LogLineSchema),
  logCount: z.number().int(),
  eventsTrimmedBefore: Millis.nullable().openapi({
    description: "Set when taskora's stream cap trimmed the job's early events: the time of the " +
      "oldest event kept, before which its timeline and attempts may be incomplete",
  }),
  links: z.strictObject({
    trace: z.string().nullable().openapi({
      description: "Its trace, by the tracing.traceUrl template and the traceparent in its data",
    }),
    logs: z.string().nullable().openapi({
      description: "Its logs over its last attempt, by the tracing.logsUrl template",
    }),
  }).openapi({ description: "Both null without payload.read: the trace id is job data" }),
  archived: z.strictObject({
    at: Millis.openapi({ description: "When the board last saw it: its last attempt's end" }),
    summary: HistoryJobSchema,
  }).optional().openapi({
    description: "Only for a job taskora no longer holds, answered from the board's history",
  }),
}).openapi("JobDetail");
true satisfies Same<z.output<typeof JobDetailSchema>, JobDetailResponse>;

/** What a retry or a cancel did. */
export const JobActionSchema = z.strictObject({
  ok: z.literal(true),
  id: z.string(),
  task: z.string(),
  from: JobStateSchema,
  to: z.union([JobStateSchema, z.literal("cancelling")]),
}).openapi("JobAction");
true satisfies Same<z.output<typeof JobActionSchema>, JobActionResponse>;

/** The new job a rerun made, and where its version came from. */
export const RerunSchema = z.strictObject({
  ok: z.literal(true),
  jobId: z.string(),
  task: z.string(),
  version: z.number().int(),
  versionFrom: z.enum(["app", "recent-jobs"]),
  expireAtFrom: z.enum(["app", "not-set"]),
}).openapi("Rerun");
true satisfies Same<z.output<typeof RerunSchema>, RerunResponse>;

/** A job's attempts, from its event stream. */
export const AttemptHistorySchema = z.strictObject({
  attempts: z.array(z.strictObject({
    attempt: z.number().int(),
    outcome: z.enum(["failed", "retrying"]),
    error: z.string().nullable(),
    at: Millis,
    nextAttemptAt: Millis.nullable(),
    logs: z.string().nullable().openapi({
      description: "Its logs by the tracing.logsUrl template over its window; null without it " +
        "or without payload.read",
    }),
  })),
  runs: z.array(z.strictObject({
    startedAt: Millis,
    outcome: z.enum(["completed", "failed", "retrying", "cancelled", "stalled"]).nullable(),
    endedAt: Millis.nullable(),
    requeuedAt: Millis.nullable(),
  })),
  complete: z.boolean(),
  scanned: z.number().int(),
  attempt: z.number().int(),
}).openapi("AttemptHistory");
true satisfies Same<z.output<typeof AttemptHistorySchema>, AttemptHistoryResponse>;
