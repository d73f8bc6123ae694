/**
 * A job summary as the API answers it: its errors as the board shows
 * errors (redacted: an error is stored as the job held it), its error's
 * shape made from the error as shown, the stored input and result (JSON
 * text, redacted before they were stored) as values, and only for a reader
 * allowed them.
 *
 * @module
 */

import type { HistoryJobResponse } from "../contract/history.ts";
import { errorPattern } from "../source/dead_letters.ts";
import type { JobSummary } from "./summary.ts";

/** A stored payload's text as a value; text that is no JSON stays text. */
function valueOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The summary's error shape as shown: the stored one is the pattern of an
 * attempt's error as the job held it (a redacted value with its numbers
 * masked), so it is made again from that attempt's error as shown; null when
 * no attempt's error gives it.
 */
function shownShape(
  { errorShape, attempts }: JobSummary,
  shownError: (message: string) => string,
): string | null {
  if (errorShape === null) return null;
  const shaped = attempts.findLast(({ error }) =>
    error !== null && errorPattern(error) === errorShape
  );
  return shaped ? errorPattern(shownError(shaped.error!)) : null;
}

/**
 * `summary` as answered, each error (and the error's shape) as
 * `shownError` shows it; its input and result only when `withPayloads` (the
 * reader may `payload.read` the job) and the history kept them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { historyJobResponse } from "./response.ts";
 * const summary = {
 *   id: "j-1", task: "mail", version: 1, state: "completed" as const, createdAt: 1,
 *   processedAt: 2, finishedAt: 3, waitMs: 1, runMs: 1, attempts: [], runs: [],
 *   errorShape: null, dataBytes: 9, resultBytes: 4, data: '{"to":"a"}', result: "true",
 * };
 * const shown = (message: string) => message;
 * assert.deepEqual(historyJobResponse(summary, true, shown).data, { to: "a" });
 * assert.equal("data" in historyJobResponse(summary, false, shown), false);
 * ```
 */
export function historyJobResponse(
  summary: JobSummary,
  withPayloads: boolean,
  shownError: (message: string) => string,
): HistoryJobResponse {
  const { data, result, attempts, runs, ...facts } = summary;
  const answer: HistoryJobResponse = {
    ...facts,
    attempts: attempts.map((attempt) => ({
      ...attempt,
      error: attempt.error === null ? null : shownError(attempt.error),
    })),
    runs: runs.map((run) => ({ ...run })),
    errorShape: shownShape(summary, shownError),
  };
  if (withPayloads && data !== undefined) answer.data = valueOf(data);
  if (withPayloads && result !== undefined) answer.result = valueOf(result);
  return answer;
}
