/**
 * The job history as the API answers it (`GET /history/jobs`,
 * `GET /history/tasks/{task}/jobs/{jobId}`): what the board kept of a job
 * after taskora removed it, every attempt with its own error and every run.
 *
 * @module
 */

/** How an attempt ended: `retrying` when taskora was to run the job again. */
export type HistoryOutcome = "retrying" | "completed" | "failed" | "expired" | "cancelled";

/** Every outcome, in the order a search form lists them. */
export const HISTORY_OUTCOMES: readonly HistoryOutcome[] = [
  "completed",
  "failed",
  "retrying",
  "expired",
  "cancelled",
];

/** One attempt of an archived job. */
export interface HistoryAttempt {
  /** The run it belongs to: 2 and on after taskora's stall check ran a finished job again. */
  run: number;
  /** taskora's attempt number. */
  attempt: number;
  /** How it ended. */
  outcome: HistoryOutcome;
  /** When it started, ms, or null when it never ran. */
  startedAt: number | null;
  /** When it ended, ms. */
  endedAt: number;
  /** Its own error, or null. */
  error: string | null;
}

/** One run of an archived job: its attempts up to the one that ended it. */
export interface HistoryRun {
  /** 1 for the first. */
  run: number;
  /** How it ended, or `retrying` while it had not. */
  state: HistoryOutcome;
  /** When its first attempt started, ms, or null. */
  startedAt: number | null;
  /** When its last attempt ended, ms. */
  endedAt: number;
  /** How many attempts it took. */
  attempts: number;
}

/** A job as the history keeps it. */
export interface HistoryJobResponse {
  /** The job's id. */
  id: string;
  /** Its task. */
  task: string;
  /** The version that ran its last attempt, or null. */
  version: number | null;
  /** How its last attempt ended. */
  state: HistoryOutcome;
  /** When it was created, ms. */
  createdAt: number;
  /** When its last attempt started, ms, or null. */
  processedAt: number | null;
  /** When its last attempt ended, ms. */
  finishedAt: number;
  /** From its creation to its first start, ms, or null. */
  waitMs: number | null;
  /** Its last attempt's running time, ms, or null. */
  runMs: number | null;
  /** Every attempt, oldest first, each with its own error. */
  attempts: HistoryAttempt[];
  /** Every run, oldest first. */
  runs: HistoryRun[];
  /** Its last error's shape id, or null. */
  errorShape: string | null;
  /** Its input's size as taskora stored it, bytes, or null. */
  dataBytes: number | null;
  /** Its result's size, bytes, or null. */
  resultBytes: number | null;
  /**
   * Its input after redaction, kept only with `history.payloads` and sent
   * only to a user allowed `payload.read`; absent otherwise.
   */
  data?: unknown;
  /** Its result after redaction, the same way. */
  result?: unknown;
}

/** A page of a history search, newest first. */
export interface HistoryPageResponse {
  /** The jobs found. */
  jobs: HistoryJobResponse[];
  /**
   * The cursor of the next page, or null when nothing is left. A page may be
   * shorter than its limit and still have one: a store looks at a bounded
   * number of jobs per call.
   */
  next: string | null;
  /**
   * Set once a cap (`history.maxSummaries` or `maxPerTask`, not the age
   * limit) dropped summaries: the history holds only the newest, and is whole
   * after `newestDroppedAt`. Null while nothing was dropped at a cap.
   */
  capped: HistoryCapped | null;
}

/** What a cap of the history dropped: how many summaries, and the newest end among them (ms). */
export interface HistoryCapped {
  dropped: number;
  newestDroppedAt: number;
}

/** What marks a job page answered from the history: taskora no longer holds the job. */
export interface ArchivedMark {
  /** When the board last saw it: its last attempt's end, ms. */
  at: number;
  /** The summary the page was made from. */
  summary: HistoryJobResponse;
}
