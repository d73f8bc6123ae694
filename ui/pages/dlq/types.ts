/**
 * The shapes `GET api/dlq` and its retries answer with (the contract's,
 * type-only, so no server code reaches the bundle), and the query of its
 * requests.
 *
 * @module
 */
import type { Endpoints } from "../../../src/contract/endpoints.ts";
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

/** The query of a DLQ request: the task filter and, for one group's jobs, its pattern. */
export function dlqQuery(
  { task, pattern, limit, offset }: {
    task: string | null;
    pattern?: string;
    limit?: number;
    offset?: number;
  },
): Endpoints["GET"]["/dlq"]["query"] {
  return { pattern, task: task || undefined, limit, offset: offset || undefined };
}

/** The failed count the DLQ shows, from a stats frame: of one task, or of every task. */
export function failedCount(stats: StatsUpdate, task: string | null): number {
  return task ? taskCounts(stats, task)?.failed ?? 0 : stats.totals.failed;
}

/** A job event that may add a job to the DLQ: a failure (of the filtered task, if any). */
export function joinsDlq(task: string | null): (event: JobEvent) => boolean {
  return (event) => event.kind === "failed" && (!task || event.task === task);
}
