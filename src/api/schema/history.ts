/**
 * Answers of the job history's reads: a summary, a search's page.
 *
 * @module
 */

import { z } from "@hono/zod-openapi";
import {
  HISTORY_OUTCOMES,
  type HistoryJobResponse,
  type HistoryOutcome,
  type HistoryPageResponse,
} from "../../contract/history.ts";
import type { Same } from "../../same.ts";
import { AnyJson, Millis } from "./common.ts";

/** How an attempt ended. */
export const HistoryOutcomeSchema = z.enum(
  HISTORY_OUTCOMES as [HistoryOutcome, ...HistoryOutcome[]],
).openapi("HistoryOutcome");

/** A job as the history keeps it. */
export const HistoryJobSchema = z.strictObject({
  id: z.string(),
  task: z.string(),
  version: z.number().int().nullable(),
  state: HistoryOutcomeSchema,
  createdAt: Millis,
  processedAt: Millis.nullable(),
  finishedAt: Millis,
  waitMs: z.number().nullable(),
  runMs: z.number().nullable(),
  attempts: z.array(z.strictObject({
    run: z.number().int(),
    attempt: z.number().int(),
    outcome: HistoryOutcomeSchema,
    startedAt: Millis.nullable(),
    endedAt: Millis,
    error: z.string().nullable(),
  })).openapi({ description: "Every attempt, oldest first, each with its own error" }),
  runs: z.array(z.strictObject({
    run: z.number().int(),
    state: HistoryOutcomeSchema,
    startedAt: Millis.nullable(),
    endedAt: Millis,
    attempts: z.number().int(),
  })).openapi({ description: "Every run: 2 after taskora's stall check ran a finished job again" }),
  errorShape: z.string().nullable(),
  dataBytes: z.number().int().nullable(),
  resultBytes: z.number().int().nullable(),
  data: AnyJson.optional().openapi({
    description: "Its input after redaction: kept only with history.payloads, sent only with " +
      "payload.read",
  }),
  result: AnyJson.optional().openapi({ description: "Its result, the same way" }),
}).openapi("HistoryJob");
true satisfies Same<z.output<typeof HistoryJobSchema>, HistoryJobResponse>;

/** A page of a history search. */
export const HistoryPageSchema = z.strictObject({
  jobs: z.array(HistoryJobSchema),
  next: z.string().nullable().openapi({
    description: "The cursor of the next page, or null: a page may be short and still have one",
  }),
  capped: z.strictObject({
    dropped: z.number().int(),
    newestDroppedAt: z.number().int(),
  }).nullable().openapi({
    description: "Set once a cap (not the age limit) dropped summaries of the tasks searched " +
      "that the user may read: how many, and the newest end among them (ms); the history of " +
      "those tasks is whole after it",
  }),
}).openapi("HistoryPage");
true satisfies Same<z.output<typeof HistoryPageSchema>, HistoryPageResponse>;
