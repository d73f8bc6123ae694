/**
 * The job as the REST API answers it: the server's own types
 * (`src/api/present.ts`, type-only, so no server code reaches the bundle),
 * under the names the pages use, and the states each action accepts.
 *
 * @module
 */
import type { JobDetailResponse, JobResponse } from "../../../src/contract/jobs.ts";

export type { LogEntry, TimelineEntry } from "../../../src/contract/jobs.ts";

/** A job as task job lists return it. */
export type Job = JobResponse;

/** `GET /jobs/{id}`: the job, its newest log lines (oldest first) and how many it logged. */
export type JobDetail = JobDetailResponse;

/** A job's progress: a percentage, or whatever object the job reported. */
export type Progress = Job["progress"];

/** States a job can be retried from (`POST /jobs/{id}/retry`; see `src/source/redis/retry.ts`). */
export const RETRYABLE_STATES: readonly string[] = ["failed", "cancelled"];

/** States a job can be cancelled in (`POST /jobs/{id}/cancel`; active ones are only signalled). */
export const CANCELLABLE_STATES: readonly string[] = ["waiting", "delayed", "retrying", "active"];
