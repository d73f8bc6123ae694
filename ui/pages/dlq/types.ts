/**
 * The shapes `GET api/dlq` and its retries answer with (the contract's,
 * type-only, so no server code reaches the bundle), and the query string
 * of its requests.
 *
 * @module
 */
import type { JobResponse } from "../../../src/contract/jobs.ts";
import { type JobEvent, type StatsUpdate, taskCounts } from "../../lib/live.ts";

export type {
  DeadLetterGroup,
  DeadLettersResponse as DeadLetters,
  DlqRetryResponse,
} from "../../../src/contract/dlq.ts";
export type { JobActionResponse } from "../../../src/contract/jobs.ts";

/** A failed job as the DLQ lists it. */
export type FailedJob = JobResponse;

/** The query string of a DLQ request: the task filter and, for one group's jobs, its pattern. */
export function dlqQuery(
  params: { task: string | null; pattern?: string; limit?: number; offset?: number },
): string {
  const query = new URLSearchParams();
  if (params.pattern !== undefined) query.set("pattern", params.pattern);
  if (params.task) query.set("task", params.task);
  if (params.limit !== undefined) query.set("limit", String(params.limit));
  if (params.offset) query.set("offset", String(params.offset));
  const text = query.toString();
  return text ? `?${text}` : "";
}

/** The failed count the DLQ shows, from a stats frame: of one task, or of every task. */
export function failedCount(stats: StatsUpdate, task: string | null): number {
  return task ? taskCounts(stats, task)?.failed ?? 0 : stats.totals.failed;
}

/** A job event that may add a job to the DLQ: a failure (of the filtered task, if any). */
export function joinsDlq(task: string | null): (event: JobEvent) => boolean {
  return (event) => event.kind === "failed" && (!task || event.task === task);
}
