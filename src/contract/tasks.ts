/**
 * Per-task answers: a task's counts and storage, its version spread for
 * migrations, and what its bulk actions did.
 *
 * @module
 */

import type { FinishedState, QueueStats } from "./states.ts";

/** The answer of `GET /tasks/{task}/stats`: the counts per state and the task's share of the store. */
export interface TaskStatsResponse extends QueueStats {
  /** The task name. */
  task: string;
  /** Keys the task holds. */
  keyCount: number;
  /** Bytes they take (partly estimated). */
  memoryBytes: number;
  /** Since when the `retrying` / `delayed` split is exact (ms), or null; see `TaskCounts`. */
  retryingAsOf: number | null;
}

/** Job counts by task version (`_v` → count). */
export type VersionCounts = Record<string, number>;

/** Counts of one bucket of the migration view. */
export interface VersionBucket {
  /** The lowest version present, or null when the bucket is empty. */
  oldest: number | null;
  /** Jobs per version. */
  byVersion: VersionCounts;
}

/**
 * What the taskora App declares for a task (`GET /tasks/{task}/definition`):
 * only known when the board is embedded with the App, since the keyspace
 * records none of it.
 */
export interface TaskDefinition {
  /** The task name. */
  name: string;
  /** The version jobs are dispatched with (`_v`). */
  version: number;
  /** The oldest job version a worker still runs; older jobs fail. */
  since: number;
  /** How many migration functions the task has. */
  migrations: number;
  /** Jobs one worker runs at once. */
  concurrency: number | null;
  /** Longest run of one attempt, ms. */
  timeout: number | null;
  /** Retry policy: attempts, backoff (`fixed`, `exponential`, `linear` or `custom`), delays in ms. */
  retry: {
    attempts: number | null;
    backoff: string | null;
    delay: number | null;
    maxDelay: number | null;
    jitter: boolean | null;
  } | null;
  /** Stall detection: check interval (ms) and how many stalls fail a job. */
  stall: { interval: number | null; maxCount: number | null } | null;
  /** One job at a time across all workers. */
  singleton: boolean;
  /** Default limit per concurrency key. */
  concurrencyLimit: number | null;
  /** Time to live of a waiting job, ms, and what happens when it runs out. */
  ttl: { maxMs: number; onExpire: string } | null;
  /** Batching of a collect task. */
  collect: { delayMs: number; maxSize: number; maxWaitMs: number } | null;
  /** Whether this process runs the task's handler (false for a contract-only registration). */
  hasHandler: boolean;
  /** Schedules declared in code for the task (re-registered at every worker start). */
  schedules: string[];
  /** Whether the task declares an input schema, which a dispatch's data is checked against. */
  inputSchema: boolean;
}

/** The answer of `GET /tasks/{task}/definition`. */
export interface TaskDefinitionResponse {
  /** The task. */
  task: string;
  /** What the App declares; null when the board runs without the App (or the App lacks the task). */
  definition: TaskDefinition | null;
}

/** The answer of `GET /tasks/{task}/migrations`. */
export interface MigrationsResponse {
  /** The task's version: the App's when embedded, else the newest seen on any job. */
  version: number;
  /** The task's declared `since` (from the App); null without it, since the keyspace does not record it. */
  since: number | null;
  /** Waiting and active jobs. */
  queue: VersionBucket;
  /** Delayed jobs. */
  delayed: VersionBucket;
  /** Jobs waiting for a retry. */
  retrying: VersionBucket;
  /** The highest `since` no waiting, active, delayed or retrying job is below. */
  canBumpSince: number;
  /** Whether `?since=N` is safe (present only when asked). */
  canBump?: boolean;
  /** How many jobs the proposed floor would strand (present only when asked). */
  blockedJobs?: number;
}

/** The answer of `POST /tasks/{task}/retry-all`. */
export interface RetryAllResponse {
  /** Always true: a refused action is an error answer. */
  ok: true;
  /** The task. */
  task: string;
  /** How many failed jobs went back to waiting. */
  retried: number;
}

/** What every answer of `POST /tasks/{task}/clean` repeats: what it was asked. */
export interface CleanSummary {
  /** Always true: a refused action is an error answer. */
  ok: true;
  /** The task. */
  task: string;
  /** The finished state cleaned. */
  state: FinishedState;
  /** The age, ms: jobs that finished longer ago than this. */
  olderThan: number;
}

/** The answer of `POST /tasks/{task}/clean` with `dryRun: true`: how many jobs would go. */
export interface CleanPreviewResponse extends CleanSummary {
  /** Always true here. */
  dryRun: true;
  /** How many jobs a clean would remove now. */
  count: number;
}

/** The answer of `POST /tasks/{task}/clean`. */
export interface CleanResponse extends CleanSummary {
  /** How many jobs were removed. */
  removed: number;
}
