/**
 * The job as the REST API answers it: the contract's types (type-only, so
 * no server code reaches the bundle), under the names the pages use, and
 * the states each action accepts.
 *
 * @module
 */
import type { JobDetailResponse, JobResponse } from "../../../src/contract/jobs.ts";

export type { JobActionResponse, LogLine, TimelineEntry } from "../../../src/contract/jobs.ts";
export type { AttemptHistoryResponse as AttemptHistory } from "../../../src/contract/attempts.ts";
export type { PayloadField } from "../../../src/contract/payload.ts";
export { CANCELLABLE_STATES, RETRYABLE_STATES } from "../../../src/contract/states.ts";

/** A job as task job lists return it. */
export type Job = JobResponse;

/** `GET /jobs/{id}`: the job, its newest log lines (oldest first) and how many it logged. */
export type JobDetail = JobDetailResponse;

/** A job's progress: a percentage, or whatever object the job reported. */
export type Progress = Job["progress"];
