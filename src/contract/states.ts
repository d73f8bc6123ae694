/**
 * The states of jobs and workflows, and the per-state job counts: the lists
 * the server validates with and the UI draws its tabs and badges from.
 *
 * @module
 */

/** Every state a taskora job can be in, in the order the board shows them. */
export const JOB_STATES = [
  "waiting",
  "active",
  "delayed",
  "retrying",
  "failed",
  "completed",
  "cancelled",
  "expired",
] as const;

/** A taskora job state. `retrying` jobs share the delayed set with `delayed` ones. */
export type JobState = typeof JOB_STATES[number];

/** States whose jobs have finished and sit in a set scored by finish time. */
export const FINISHED_STATES = ["completed", "failed", "cancelled", "expired"] as const;

/** A finished job state. */
export type FinishedState = typeof FINISHED_STATES[number];

/** States a job can be retried from: it goes back to waiting as a fresh dispatch. */
export const RETRYABLE_STATES = ["failed", "cancelled"] as const;

/** A state a job can be retried from. */
export type RetryableState = typeof RETRYABLE_STATES[number];

/** States a job can be cancelled in: at once, or (active) by signalling its worker. */
export const CANCELLABLE_STATES = ["waiting", "delayed", "retrying", "active"] as const;

/** Job counts of one task, one number per state. */
export type QueueStats = Record<JobState, number>;

/** Every overall state taskora writes on a workflow. */
export const WORKFLOW_STATES = ["running", "completed", "failed", "cancelled"] as const;

/** A workflow's overall state, as taskora writes it. */
export type WorkflowState = typeof WORKFLOW_STATES[number];
