/**
 * A job as a row of an export, as the list API shows it (presented: error
 * and progress redacted, no payloads).
 *
 * @module
 */

import type { JobResponse } from "../contract/jobs.ts";
import { csvRow } from "../http/csv.ts";

/** The CSV columns, in order. */
export const CSV_COLUMNS = [
  "id",
  "task",
  "state",
  "attempt",
  "maxAttempts",
  "version",
  "priority",
  "created",
  "processed",
  "finished",
  "runAt",
  "cancelled",
  "expireAt",
  "error",
  "cancelReason",
  "stalledCount",
  "progress",
] as const;

const iso = (ms: number | null) => ms === null ? null : new Date(ms).toISOString();

/** A job as a CSV row, in the order of {@link CSV_COLUMNS}. */
export function csvOf(job: JobResponse): string {
  const t = job.timestamps;
  return csvRow([
    job.id,
    job.task,
    job.state,
    job.attempt,
    job.maxAttempts,
    job.version,
    job.priority,
    iso(t.created),
    iso(t.processed),
    iso(t.finished),
    iso(t.runAt),
    iso(t.cancelled),
    iso(t.expireAt),
    job.error,
    job.cancelReason,
    job.stalledCount,
    job.progress === null || job.progress === undefined ? null : JSON.stringify(job.progress),
  ]);
}
