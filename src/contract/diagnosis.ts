/**
 * "Why is this job waiting?": what holds a pending job back, as the board
 * can tell from taskora's keys. A source reads the facts of one job
 * ({@link JobHolds}: its place in the queue, its concurrency key and its
 * counter, its dedup key, its collect buffer, ...); `diagnosis_reasons.ts`
 * turns them, with when its task's workers last took a job (`workers.ts`),
 * into an ordered list of {@link DiagnosisReason}s.
 *
 * @module
 */

import type { JobState } from "./states.ts";

/** The states a diagnosis looks into; any other state answers no reasons. */
export const DIAGNOSED_STATES: readonly JobState[] = ["waiting", "delayed", "retrying", "active"];

/** Most jobs ahead a queue position counts (taskora's `LPOS … MAXLEN`): past it, "more than". */
export const QUEUE_POSITION_LIMIT = 10_000;

/** Most holders of a concurrency key named (active jobs looked at). */
export const HOLDER_SCAN = 100;

/** The window of the completion rate a queue's wait is estimated from (ms). */
export const RATE_WINDOW_MS = 10 * 60_000;

/** A job's per-key concurrency, from its hash and the key's counter. */
export interface ConcurrencyHold {
  /** The concurrency key the job was dispatched with. */
  key: string;
  /** The limit taskora stored on the job (`concurrencyLimit`). */
  limit: number;
  /** The key's counter (`<task>:conc:<key>`): jobs of the key running now. */
  inUse: number;
  /** Active jobs of the task on the same key (of the first {@link HOLDER_SCAN} active ones). */
  holders: string[];
}

/** A collect task's buffer the job (its flush job) will drain. */
export interface CollectHold {
  /** The collect key. */
  key: string;
  /** Items in the buffer. */
  count: number;
  /** When the first item came (ms); null when unknown. */
  firstAt: number | null;
  /** When the newest item came (ms); null when unknown. */
  lastAt: number | null;
}

/**
 * The facts of one job a diagnosis is built from, as a source reads them:
 * O(1) or O(small) reads per job, never a SCAN.
 */
export interface JobHolds {
  /** The job. */
  id: string;
  /** Its task. */
  task: string;
  /** Its state. */
  state: JobState;
  /** Its attempt (1 for the first). */
  attempt: number;
  /** Attempts it may have. */
  maxAttempts: number;
  /** Its `_v`. */
  version: number;
  /** Dispatch time (ms). */
  createdAt: number;
  /**
   * Waiting: the jobs a worker takes before it (taskora takes the wait list
   * first, then the prioritized set); null when more than
   * {@link QUEUE_POSITION_LIMIT} or not waiting.
   */
  ahead: number | null;
  /** The task's waiting jobs. */
  waiting: number;
  /** Delayed or retrying: when it becomes runnable (ms). */
  runAt: number | null;
  /** The dispatch delay taskora stored on the job (`delay`, ms), or null. */
  dispatchDelayMs: number | null;
  /** Its concurrency key, or null when it has none. */
  concurrency: ConcurrencyHold | null;
  /** The dedup key it holds, one that names it (taskora's key without the task's prefix), or null. */
  dedupKey: string | null;
  /** The collect buffer it flushes, or null when it is no collect flush job. */
  collect: CollectHold | null;
  /** The job a debounce replaced with this one (a `debounced` entry names it), or null. */
  debounceReplaced: string | null;
  /**
   * The task's active jobs: how many, the first few ids (for a singleton),
   * and how many of those ({@link HOLDER_SCAN} at most) hold a live lock (a
   * worker runs them: the task's workers are busy, not gone).
   */
  active: { count: number; ids: string[]; locked: number };
  /**
   * When its TTL ends (taskora's `expireAt`, ms), or null: a worker that
   * takes or promotes it past then expires it instead of running it.
   */
  expireAt: number | null;
  /**
   * Active: the cancel asked for while it runs (`cancelledAt`, and the
   * reason), or null: its worker aborts it and it ends cancelled.
   */
  cancelRequested: { at: number; reason: string | null } | null;
  /** Active: the job's lock (a worker renews it while it runs). */
  lock: { token: string | null; ttlMs: number | null } | null;
}

/** A figure, id, time or list shown as a reason's evidence. */
export type EvidenceValue = number | string | string[] | null;

/** One thing that holds the job back, with what shows it. */
export interface DiagnosisReason {
  /** What kind of hold (see docs/diagnosis.md for each). */
  code: DiagnosisCode;
  /** The reason in plain words. */
  summary: string;
  /** The figures, ids and times (ms) it is based on. */
  evidence: Record<string, EvidenceValue>;
  /** A board page that shows more: a job (`/jobs/<id>`) or a task (`/tasks/<task>`). */
  link?: string;
}

/** The kinds of hold, in the order a diagnosis lists them (what decides first). */
export const DIAGNOSIS_CODES = [
  "migrationLock",
  "versionBelowSince",
  "versionAboveTask",
  "noWorker",
  "workersBusy",
  "singleton",
  "concurrencyKey",
  "queue",
  "collect",
  "debounce",
  "retryBackoff",
  "dispatchDelay",
  "expires",
  "cancelRequested",
  "running",
  "lockLost",
  "dedup",
  // A workflow node with no job yet (`GET /workflows/{id}`, each node's `notStarted`).
  "workflowEnded",
  "workflowParents",
] as const;

/** One kind of hold. */
export type DiagnosisCode = typeof DIAGNOSIS_CODES[number];

/** The answer of `GET /jobs/{id}/diagnosis`. */
export interface JobDiagnosisResponse {
  /** The job. */
  id: string;
  /** Its task. */
  task: string;
  /** Its state; a state not in {@link DIAGNOSED_STATES} has no reasons. */
  state: JobState;
  /** When it was read (ms, the board's clock). */
  readAt: number;
  /** What holds it, first what decides. */
  reasons: DiagnosisReason[];
  /** What the board cannot tell here, and why (e.g. what only the App knows). */
  unknown: string[];
}
