/**
 * Workers of a task, as far as taskora's keyspace shows them. taskora keeps
 * no worker registry: what it leaves is its event stream (an `active` entry
 * each time a worker takes a job, `completed` or `failed` when one finishes
 * it) and a lock per active job (`<job>:lock`, a random token per attempt,
 * renewed by its worker every 10 s to 30 s). An idle worker, blocked on the
 * task's marker, leaves no trace at all, so the live workers can only be
 * bounded from below.
 *
 * @module
 */

import type { JobLock } from "./liveness.ts";

/** Stream entries a workers read looks at, newest first. */
export const WORKERS_EVENT_DEPTH = 1000;

/** Stream entries the overview looks at per task with waiting jobs, newest first. */
export const HEALTH_EVENT_DEPTH = 200;

/**
 * Most active jobs whose locks the overview reads for a task none of whose
 * jobs was taken for over `health.maxIdleMs` (the newest claimed): one live
 * lock says its workers are busy, not gone.
 */
export const HEALTH_LOCK_SAMPLE = 10;

/** Most active jobs whose locks a workers read looks at (the newest claimed). */
export const WORKERS_ACTIVE_SAMPLE = 100;

/**
 * When a task's workers last took and finished a job, from the newest
 * entries of its event stream.
 */
export interface TaskActivity {
  /** When the newest `active` entry read was written (a worker took a job), ms; null when none was read. */
  lastTakenAt: number | null;
  /** When the newest `completed` or `failed` entry read was written, ms; null when none was read. */
  lastFinishedAt: number | null;
  /** Entries looked at, newest first (at most the depth asked). */
  scanned: number;
  /**
   * When the oldest entry looked at was written, ms; null for an empty
   * stream. A time not found was before it: no job was taken since.
   */
  coveredSince: number | null;
}

/** The active jobs of a task and their locks, as read. */
export interface ActiveLocks {
  /** How many jobs the active list holds. */
  active: number;
  /** The locks of the newest claimed of them (at most {@link WORKERS_ACTIVE_SAMPLE}). */
  locks: JobLock[];
}

/** A lower bound of a task's live workers and what it rests on, in words. */
export interface WorkerEstimate {
  /** At least this many workers are live (0: none is seen, which does not mean none runs). */
  atLeast: number;
  /** How the figure was reached, for the operator. */
  basis: string;
}

/** One live lock: a worker holds it for this job's current attempt. */
export interface LockHolder {
  /** The lock's token (random per attempt). */
  token: string;
  /** The job it locks. */
  jobId: string;
  /** Milliseconds left on it when read; null when it has no expiry. */
  ttlMs: number | null;
}

/** The answer of `GET /tasks/{task}/workers`. */
export type TaskWorkersResponse =
  & {
    /** The task. */
    task: string;
    /** When it was read (ms, the board's clock). */
    readAt: number;
  }
  & (
    | {
      known: true;
      /** Last taken and last finished, from the event stream. */
      activity: TaskActivity;
      /** Jobs in the active list. */
      active: number;
      /** Active jobs looked at (the newest claimed, at most {@link WORKERS_ACTIVE_SAMPLE}). */
      sampled: number;
      /** Distinct live lock tokens among them, each with its job. */
      holders: LockHolder[];
      /** Active jobs looked at with no lock: their worker is gone (or just finishing). */
      unlocked: string[];
      /** Live workers, bounded from below. */
      estimate: WorkerEstimate;
    }
    | { known: false; reason: string }
  );

/** Distinct live lock tokens, each with the job it locks, in the order read. */
export function lockHolders(locks: readonly JobLock[]): LockHolder[] {
  const seen = new Set<string>();
  const holders: LockHolder[] = [];
  for (const { id, token, ttlMs } of locks) {
    if (token === null || seen.has(token)) continue;
    seen.add(token);
    holders.push({ token, jobId: id, ttlMs });
  }
  return holders;
}

/**
 * The fewest live workers the evidence allows: with `holders` live locks
 * and each worker running at most `concurrency` jobs of the task at once
 * (the App's figure; unknown without it, or when the App registers the task
 * as a contract only), `ceil(holders / concurrency)`, or
 * 1 when any lock is live. `sampled < active`: more jobs may hold locks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { estimateWorkers } from "./workers.ts";
 * assert.deepEqual(estimateWorkers(5, 2, 5, 5).atLeast, 3);
 * ```
 */
export function estimateWorkers(
  holders: number,
  concurrency: number | null,
  sampled: number,
  active: number,
): WorkerEstimate {
  const partly = sampled < active ? ` (of the ${sampled} newest of ${active} active jobs)` : "";
  if (holders === 0) {
    return {
      atLeast: 0,
      basis: `no active job holds a live lock${partly}; taskora keeps no worker registry, so ` +
        "idle workers are not seen",
    };
  }
  const locks = `${holders} live lock${holders === 1 ? "" : "s"}${partly}`;
  if (concurrency === null) {
    return {
      atLeast: 1,
      basis: `${locks}: at least one worker runs; how many jobs one runs at once is known ` +
        "only from an App that runs the task's handler (createBoard(app) in it)",
    };
  }
  return {
    atLeast: Math.ceil(holders / concurrency),
    basis: `${locks}, each worker running at most ${concurrency} at once (the task's ` +
      "concurrency); idle workers are not seen",
  };
}
