/**
 * The answer of `GET /jobs/{id}/diagnosis` (see `contract/diagnosis.ts`).
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import { DIAGNOSIS_CODES, type JobDiagnosisResponse } from "../../contract/diagnosis.ts";
import { JobStateSchema, Millis } from "./common.ts";
import type { Same } from "../../same.ts";

/** One thing that holds a job (or a workflow node) back. */
export const ReasonSchema = z.strictObject({
  code: z.enum(DIAGNOSIS_CODES),
  summary: z.string().openapi({ description: "The reason in plain words" }),
  evidence: z.record(
    z.string(),
    z.union([z.number(), z.string(), z.array(z.string()), z.null()]),
  ).openapi({
    description: "The figures, ids and times (ms) the reason is based on; keys derived from " +
      "job data (concurrency, dedup, collect) only for users with payload.read",
  }),
  link: z.string().optional().openapi({
    description: "A board page that shows more: `/jobs/<id>` or `/tasks/<task>`",
  }),
}).openapi("DiagnosisReason");

/** What holds a job back, first what decides. */
export const JobDiagnosisSchema = z.strictObject({
  id: z.string(),
  task: z.string(),
  state: JobStateSchema,
  readAt: Millis,
  reasons: z.array(ReasonSchema).openapi({
    description: "Empty for a job that is not waiting, delayed, retrying or active",
  }),
  unknown: z.array(z.string()).openapi({
    description: "What the board cannot tell here, and why (what only the App declares)",
  }),
}).openapi("JobDiagnosis");
true satisfies Same<z.output<typeof JobDiagnosisSchema>, JobDiagnosisResponse>;
