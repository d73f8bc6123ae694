/**
 * Dispatching a job of a task from the board (`POST /tasks/{task}/dispatch`):
 * only with the taskora App (`createBoard(app)`), which alone knows the
 * task's version and its input schema; idempotent on `Idempotency-Key`.
 *
 * @module
 */

/** What a dispatch sends. */
export interface DispatchRequest {
  /** The job's input, checked against the task's input schema (Standard Schema) first. */
  data: unknown;
  /** Milliseconds before it may run. */
  delay?: number;
  /** Above 0 runs before jobs of lower priority. */
  priority?: number;
  /** The concurrency key the job counts against. */
  concurrencyKey?: string;
}

/** What a dispatch made. */
export interface DispatchResult {
  /** The job's id (the first dispatch's, for a repeated `Idempotency-Key`). */
  jobId: string;
  /** False when a dispatch with the same `Idempotency-Key` made the job already. */
  created: boolean;
}

/** The answer of `POST /tasks/{task}/dispatch`. */
export type DispatchResponse = DispatchResult & { ok: true; task: string };

/** Why a board without the App refuses to dispatch. */
export const DISPATCH_NEEDS_APP = "Dispatching needs the taskora App: create the board with " +
  "createBoard(app). With only a Redis URL the board cannot know the task's version or its " +
  "input schema";
