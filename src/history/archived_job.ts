/**
 * A job page for a job taskora no longer holds, made from what the history
 * kept of it: the job's facts as the page shows them, marked archived, with
 * no logs, progress or links (taskora removed them with the job).
 *
 * @module
 */

import type { HistoryJobResponse } from "../contract/history.ts";
import type { JobDetailResponse } from "../contract/jobs.ts";
import type { JobState } from "../contract/states.ts";
import { timelineOf } from "../contract/timeline.ts";

/**
 * The job page of `summary` (as its reader may see it: errors redacted,
 * payloads only with `payload.read`), marked archived.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { archivedJobDetail } from "./archived_job.ts";
 * const attempt = (n: number, outcome: "retrying" | "failed", at: number) => ({
 *   run: 1, attempt: n, outcome, startedAt: at - 5, endedAt: at, error: `timeout #${n}`,
 * });
 * const page = archivedJobDetail({
 *   id: "j-1", task: "charge", version: 2, state: "failed", createdAt: 100, processedAt: 195,
 *   finishedAt: 200, waitMs: 0, runMs: 5, errorShape: null, dataBytes: 2, resultBytes: null,
 *   attempts: [attempt(1, "retrying", 150), attempt(2, "failed", 200)],
 *   runs: [{ run: 1, state: "failed", startedAt: 145, endedAt: 200, attempts: 2 }],
 * });
 * assert.equal(page.error, "timeout #2");
 * assert.equal(page.attempt, 2);
 * assert.equal(page.archived?.at, 200);
 * ```
 */
export function archivedJobDetail(summary: HistoryJobResponse): JobDetailResponse {
  const last = summary.attempts.at(-1);
  const state: JobState = summary.state;
  const timestamps = {
    created: summary.createdAt,
    processed: summary.processedAt,
    finished: summary.finishedAt,
    runAt: null,
    cancelled: state === "cancelled" ? summary.finishedAt : null,
    expireAt: null,
  };
  return {
    id: summary.id,
    task: summary.task,
    state,
    error: last?.error ?? null,
    progress: null,
    attempt: last?.attempt ?? 1,
    // taskora's limit went with the job: the attempts made are what is known.
    maxAttempts: last?.attempt ?? 1,
    version: summary.version ?? 0,
    priority: 0,
    cancelReason: state === "cancelled" ? last?.error ?? null : null,
    // A run after the first is one taskora's stall check made.
    stalledCount: summary.runs.length - 1,
    workflow: null,
    timestamps,
    timeline: timelineOf(state, timestamps),
    data: summary.data ?? null,
    result: summary.result ?? null,
    payloads: {},
    logs: [],
    logCount: 0,
    eventsTrimmedBefore: null,
    links: { trace: null, logs: null },
    archived: { at: summary.finishedAt, summary },
  };
}
