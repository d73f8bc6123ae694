/**
 * Dispatching a job of a task from the board (`POST /tasks/{task}/dispatch`):
 * only with the taskora App (`createBoard(app)`), which alone knows the
 * task's version and its input schema; idempotent on `Idempotency-Key`.
 *
 * @module
 */

/** What a dispatch sends to the source. */
export interface DispatchRequest {
  /** The job's input, checked against the task's input schema (Standard Schema) first, when it declares one. */
  data: unknown;
  /** Milliseconds before it may run. */
  delay?: number;
  /** Above 0 runs before jobs of lower priority; at most {@link MAX_PRIORITY}. */
  priority?: number;
  /** The concurrency key the job counts against. */
  concurrencyKey?: string;
}

/** The body of `POST /tasks/{task}/dispatch`: its delay in ms or a duration (`"30s"`, `"5m"`). */
export type DispatchBody = Omit<DispatchRequest, "delay"> & { delay?: number | string };

/** What a dispatch made. */
export interface DispatchResult {
  /** The job's id (the first dispatch's, for a repeated `Idempotency-Key`). */
  jobId: string;
  /** False when a dispatch with the same `Idempotency-Key` made the job already. */
  created: boolean;
  /**
   * True for a collect task: the data joined the buffer of its collect key,
   * and `jobId` is the buffer's flush job (see {@link COLLECT_DISPATCH}).
   */
  collect: boolean;
}

/** The answer of `POST /tasks/{task}/dispatch`. */
export type DispatchResponse = DispatchResult & { ok: true; task: string };

/** Why a board without the App refuses to dispatch. */
export const DISPATCH_NEEDS_APP = "Dispatching needs the taskora App: create the board with " +
  "createBoard(app). With only a Redis URL the board cannot know the task's version or its " +
  "input schema";

/** What a dispatch to a collect task makes, and what does not apply to it. */
export const COLLECT_DISPATCH = "A collect task: taskora adds the data to the buffer of its " +
  "collect key, and the job id is the buffer's flush job, which the next item on the key " +
  "replaces until the buffer flushes. A delay, priority or concurrency key does not apply";

/**
 * taskora's scores of prioritized jobs step by this per priority:
 * `-(priority * 1e13) + ts`.
 */
export const PRIORITY_SCORE_STEP = 1e13;

/**
 * The highest priority whose score Redis keeps exact (a double holds every
 * integer up to 2^53): 900. Above it the score rounds to 2 ms and coarser,
 * so jobs of one priority no longer run in the order they were dispatched.
 */
export const MAX_PRIORITY = Math.floor(Number.MAX_SAFE_INTEGER / PRIORITY_SCORE_STEP);
