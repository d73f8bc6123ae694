/**
 * A job of the history as a row of an export, as the search shows it to the
 * user, without the stored input and result (no export carries payloads).
 *
 * @module
 */

import type { HistoryJobResponse } from "../contract/history.ts";
import { csvRow } from "../http/csv.ts";

/** The history export's CSV columns, in order. */
export const HISTORY_CSV_COLUMNS = [
  "id",
  "task",
  "state",
  "version",
  "created",
  "processed",
  "finished",
  "waitMs",
  "runMs",
  "attempts",
  "runs",
  "error",
  "errorShape",
  "dataBytes",
  "resultBytes",
] as const;

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

/**
 * A summary as a CSV row, in the order of {@link HISTORY_CSV_COLUMNS}; its
 * error is its last attempt's.
 */
export function historyCsvOf(job: HistoryJobResponse): string {
  return csvRow([
    job.id,
    job.task,
    job.state,
    job.version,
    iso(job.createdAt),
    iso(job.processedAt),
    iso(job.finishedAt),
    job.waitMs,
    job.runMs,
    job.attempts.length,
    job.runs.length,
    job.attempts.at(-1)?.error ?? null,
    job.errorShape,
    job.dataBytes,
    job.resultBytes,
  ]);
}

/** A summary as an NDJSON line, without the payloads a history read may carry. */
export function historyNdjsonOf(
  { data: _data, result: _result, ...job }: HistoryJobResponse,
): string {
  return `${JSON.stringify(job)}\n`;
}
