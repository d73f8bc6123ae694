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
import { MAX_SEARCH_LIMIT, MAX_SEARCH_TEXT } from "../../history/store.ts";
import { AnyJson, Millis } from "./common.ts";
import { integerParam, textParam } from "./params.ts";

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
    description: "Set once a cap (not the age limit) dropped summaries: how many, and the " +
      "newest end among them (ms); the history is whole after it",
  }),
}).openapi("HistoryPage");
true satisfies Same<z.output<typeof HistoryPageSchema>, HistoryPageResponse>;

const time = (bound: string) =>
  textParam(
    64,
    `${bound}: epoch ms, or an ISO 8601 date or date-time with a zone; on the end of the job's ` +
      "last attempt",
  );

/** The history search's query parameters. */
export const HistoryQuerySchema = z.object({
  task: textParam(256, "One task (absent: every task)"),
  state: textParam(
    64,
    `How the job's last attempt ended: ${HISTORY_OUTCOMES.join(", ")} (several: commas)`,
  ),
  from: time("Earliest end, inclusive"),
  to: time("Latest end, exclusive"),
  version: integerParam({ description: "The version that ran the last attempt" }),
  error: textParam(MAX_SEARCH_TEXT, "Text an attempt's error contains (case ignored)"),
  idPrefix: textParam(MAX_SEARCH_TEXT, "The start of the job's id"),
  cursor: textParam(512, "A page's `next`: continues that search"),
  limit: integerParam({ fallback: 50, min: 1, max: MAX_SEARCH_LIMIT }),
});
