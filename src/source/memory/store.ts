/**
 * The in-memory state of a taskora deployment, kept in the same shapes as
 * taskora's Redis keyspace (wire format 6), and the job transitions that
 * change it, one method per taskora script (enqueue, moveToActive, ack, fail,
 * cancel, finishCancel, promotion of due delayed jobs, retryDLQ, retryAllDLQ,
 * cleanJobs).
 *
 * Per task: the wait list, the prioritized set, the active list, the delayed
 * set (delayed and retrying jobs), the four finished sets, the job records
 * with their logs, and per-minute throughput counters. Across tasks: the
 * workflow hashes and the schedules. Reads (the TaskSource answers) live in
 * `source.ts`; this file only holds the state and moves jobs through it.
 *
 * @module
 */

import {
  FINISHED_STATES,
  type FinishedState,
  type JobRecord,
  type LogEntry,
  type WorkflowLink,
} from "../types.ts";
import { SortedSet } from "./sorted_set.ts";

/** A job as the store keeps it: its record (the job hash) and its log list. */
export interface StoredJob extends JobRecord {
  /** The job's log list, oldest first. */
  logs: LogEntry[];
  /** The dispatch delay, ms (the hash's `delay`; absent when dispatched without one). */
  delay?: number;
}

/** Finished-job counts of one minute. */
export interface MinuteCounts {
  /** Jobs that completed in the minute. */
  completed: number;
  /** Jobs that failed for good in the minute (retries not counted). */
  failed: number;
}

/**
 * One entry of a task's event stream (`taskora:{T}:events`), as taskora's
 * scripts write it: every field a string. The source decodes it into the
 * port's `TaskEvent`.
 */
export interface StoreEvent {
  /** The task whose stream it is. */
  task: string;
  /** The kind (waiting, active, completed, …). */
  event: string;
  /** The job it is about. */
  jobId: string;
  /** The other stream fields, as written. */
  fields: Record<string, string>;
  /** When it was written (ms). */
  at: number;
  /** Its stream id, as Redis gives one: `<ms>-<seq>`, each after the last of its stream. */
  id: string;
}

/** A schedule as taskora's scheduler stores it. */
export interface StoredSchedule {
  /** The `taskora:schedules` hash field: config plus `lastRun` / `lastJobId`, as JSON. */
  json: string;
  /** Its score in `taskora:schedules:next`, or null when paused. */
  nextRun: number | null;
}

/** A lock string (`<job>:lock`, `schedules:lock`): its token and when it expires. */
export interface StoredLock {
  /** The value taskora wrote: a random token. */
  token: string;
  /** When it expires (ms); null for no expiry. */
  expiresAt: number | null;
}

/** How long taskora's worker locks a job it claims, and renews it to, ms (`LOCK_TTL`). */
export const JOB_LOCK_TTL_MS = 30_000;

/** How often taskora's worker renews the locks of its jobs, ms (`LOCK_EXTEND_INTERVAL`). */
export const JOB_LOCK_RENEW_MS = 10_000;

/** What a dispatch (taskora's `dispatch()` / enqueue scripts) carries. */
export interface DispatchInput {
  /** Client-generated id; a workflow node passes the id from its graph. */
  id: string;
  /** The job's input. */
  data: unknown;
  /** Task version `_v` (default 1). */
  version?: number;
  /** Above 0 goes to the prioritized set. */
  priority?: number;
  /** Attempts before the job fails for good (default 1). */
  maxAttempts?: number;
  /** Milliseconds to wait before the job may run (enqueueDelayed). */
  delay?: number;
  /** Absolute TTL: a job still not started at this time expires. */
  expireAt?: number | null;
  /** The workflow node the job runs, if any. */
  workflow?: WorkflowLink | null;
}

/** What a cancel did, like taskora's CANCEL script answers. */
export type CancelOutcome = "cancelled" | "flagged" | "not-cancellable";

/**
 * The id Redis gives an entry added at `at` (ms) to a stream whose newest
 * entry is `last`: `<ms>-<seq>`, the sequence counting up within one ms,
 * and never before `last` (a clock that stepped back keeps the last ms).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(nextStreamId("0-0", 1000), "1000-0");
 * assert.equal(nextStreamId("1000-0", 1000), "1000-1");
 * assert.equal(nextStreamId("1000-1", 999), "1000-2");
 * ```
 */
export function nextStreamId(last: string, at: number): string {
  const [ms, seq] = last.split("-").map(Number);
  return at > ms ? `${at}-0` : `${ms}-${seq + 1}`;
}

/** Options of a store. */
export interface MemoryStoreOptions {
  /** The clock (ms). Defaults to `Date.now`; tests pass a fake one. */
  now?: () => number;
  /**
   * How many jobs each finished set of a task keeps; older ones are dropped
   * with their logs, as taskora's own trimming does. Default 5,000.
   */
  retention?: number;
  /** How many workflows are kept (oldest finished ones go first). Default 1,000. */
  workflowRetention?: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** taskora caps each event stream with `MAXLEN ~ 10000`. */
const STREAM_CAP = 10_000;
/** A rough per-entry cost of a stream entry, for the memory estimate. */
const STREAM_ENTRY_BYTES = 90;
/** A rough per-key overhead in Redis, for the memory estimate. */
export const KEY_OVERHEAD_BYTES = 56;

/** Score of a job in the prioritized set: higher priority first, then older first. */
export function priorityScore(priority: number, ts: number): number {
  return -(priority * 1e13) + ts;
}

function jsonLength(value: unknown): number {
  if (value === null || value === undefined) return 0;
  return typeof value === "string" ? value.length + 2 : JSON.stringify(value)?.length ?? 0;
}

/** The estimated Redis footprint of a job hash and its log list. */
function jobBytes(job: StoredJob): number {
  let bytes = KEY_OVERHEAD_BYTES + 160 + jsonLength(job.data) + jsonLength(job.result) +
    jsonLength(job.progress) + (job.error?.length ?? 0) + (job.cancelReason?.length ?? 0);
  if (job.logs.length > 0) {
    bytes += KEY_OVERHEAD_BYTES;
    for (const log of job.logs) bytes += jsonLength(log) + 16;
  }
  return bytes;
}

/** The keys of one task, held in memory. */
export class TaskQueue {
  /** The task name. */
  readonly name: string;
  /**
   * The wait list (priority 0) in run order: index 0 is the Redis list's tail,
   * the job a worker pops next; new jobs are appended (taskora LPUSHes them).
   */
  readonly wait: string[] = [];
  /** Jobs with a priority, scored `-(priority * 1e13) + ts`. */
  readonly prioritized: SortedSet = new SortedSet();
  /** The active list in Redis order: index 0 is the head, the job claimed last. */
  readonly active: string[] = [];
  /** Delayed and retrying jobs, scored by the time they may run. */
  readonly delayed: SortedSet = new SortedSet();
  /** Finished jobs per state, scored by finish time. */
  readonly finished: Record<FinishedState, SortedSet>;
  /** Every job record (hash) of the task, with its logs. */
  readonly jobs: Map<string, StoredJob> = new Map();
  /** Throughput counters: minute start (ms) → counts. */
  readonly metrics: Map<number, MinuteCounts> = new Map();
  /** Locks of active jobs (`<job>:lock`) by job id; see {@link MemoryStore.lockOf}. */
  readonly locks: Map<string, StoredLock> = new Map();
  /** The stalled set: active jobs of the last stall check not renewed since. */
  readonly stalled: Set<string> = new Set();
  /** Entries in the task's event stream (capped like taskora's). */
  streamLength = 0;
  /**
   * The entries this store wrote to the stream, oldest first, trimmed like
   * taskora's `MAXLEN ~`: to {@link STREAM_CAP} once a tenth over it.
   */
  readonly stream: StoreEvent[] = [];
  /** Whether the cap ever removed entries from {@link stream}. */
  streamTrimmed = false;
  /** The id of the newest entry of {@link stream} ever written (`0-0` before the first). */
  lastStreamId = "0-0";
  #bytes = new Map<string, number>();
  #totalBytes = 0;

  /** An empty task. */
  constructor(name: string) {
    this.name = name;
    this.finished = Object.fromEntries(
      FINISHED_STATES.map((state) => [state, new SortedSet()]),
    ) as Record<FinishedState, SortedSet>;
  }

  /** Estimated bytes of the task's job hashes and logs. */
  get jobBytes(): number {
    return this.#totalBytes;
  }

  /** Estimated bytes of the task's lists, sets, counters and stream. */
  get structureBytes(): number {
    const members = this.wait.length + this.prioritized.size + this.active.length +
      this.delayed.size +
      FINISHED_STATES.reduce((sum, state) => sum + this.finished[state].size, 0);
    return members * 48 + this.metrics.size * 2 * KEY_OVERHEAD_BYTES +
      this.streamLength * STREAM_ENTRY_BYTES;
  }

  /** Re-estimates one job's size after it changed. */
  measure(job: StoredJob): void {
    const bytes = jobBytes(job);
    this.#totalBytes += bytes - (this.#bytes.get(job.id) ?? 0);
    this.#bytes.set(job.id, bytes);
  }

  /** Drops a job's size from the estimate. */
  unmeasure(id: string): void {
    this.#totalBytes -= this.#bytes.get(id) ?? 0;
    this.#bytes.delete(id);
  }
}

/**
 * The whole in-memory keyspace and its transitions. Every method that moves a
 * job does what the taskora script of the same name does to the Redis keys,
 * and emits the entry taskora would add to the task's event stream.
 */
export class MemoryStore {
  /** The clock every transition stamps with. */
  readonly now: () => number;
  /** When the store was created (ms), for uptime. */
  readonly createdAt: number;
  /** Jobs kept per finished set per task. */
  readonly retention: number;
  /** Workflows kept. */
  readonly workflowRetention: number;
  /** Tasks by name. */
  readonly tasks: Map<string, TaskQueue> = new Map();
  /** Workflow hashes (`taskora:wf:{id}`) by id, fields as taskora writes them. */
  readonly workflows: Map<string, Record<string, string>> = new Map();
  /** Schedules by name. */
  readonly schedules: Map<string, StoredSchedule> = new Map();
  /** The scheduler leader lock (`schedules:lock`), or null; see {@link MemoryStore.lockOf}. */
  schedulerLock: StoredLock | null = null;
  #jobTask = new Map<string, string>();
  #listeners = new Set<(event: StoreEvent) => void>();

  /** An empty store. */
  constructor(options: MemoryStoreOptions = {}) {
    this.now = options.now ?? Date.now;
    this.createdAt = this.now();
    this.retention = options.retention ?? 5_000;
    this.workflowRetention = options.workflowRetention ?? 1_000;
  }

  /** The task's keys, created on first use (as any write to Redis would). */
  task(name: string): TaskQueue {
    let queue = this.tasks.get(name);
    if (!queue) {
      queue = new TaskQueue(name);
      this.tasks.set(name, queue);
    }
    return queue;
  }

  /** A job by id, across tasks. */
  findJob(id: string): StoredJob | undefined {
    const task = this.#jobTask.get(id);
    return task === undefined ? undefined : this.tasks.get(task)?.jobs.get(id);
  }

  /** Listens to every event-stream entry; returns the unsubscribe function. */
  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Adds or replaces a job record (a job hash) without placing it in a list or set. */
  putJob(job: StoredJob): void {
    const queue = this.task(job.task);
    queue.jobs.set(job.id, job);
    queue.measure(job);
    this.#jobTask.set(job.id, job.task);
  }

  /** Re-estimates a job's size after a change made outside the transitions below. */
  touch(job: StoredJob): void {
    this.tasks.get(job.task)?.measure(job);
  }

  /** Deletes a job record and its logs (not its place in lists or sets). */
  deleteJob(task: string, id: string): void {
    const queue = this.tasks.get(task);
    if (!queue) return;
    queue.jobs.delete(id);
    queue.unmeasure(id);
    if (this.#jobTask.get(id) === task) this.#jobTask.delete(id);
  }

  /** Places a finished job in its finished set at `at` and applies retention. */
  addFinished(job: StoredJob, state: FinishedState, at: number): void {
    const queue = this.task(job.task);
    queue.finished[state].add(job.id, at);
    const excess = queue.finished[state].size - this.retention;
    if (excess > 0) {
      for (const id of queue.finished[state].trimLowest(excess)) this.deleteJob(job.task, id);
    }
  }

  /** Adds `count` to a throughput counter (`metrics:<kind>:<minute>`), dropping day-old ones. */
  countFinished(task: string, kind: "completed" | "failed", at: number, count = 1): void {
    const metrics = this.task(task).metrics;
    const minute = Math.floor(at / MINUTE) * MINUTE;
    let counts = metrics.get(minute);
    if (!counts) {
      counts = { completed: 0, failed: 0 };
      metrics.set(minute, counts);
      const horizon = this.now() - DAY;
      for (const key of metrics.keys()) if (key < horizon) metrics.delete(key);
    }
    counts[kind] += count;
  }

  /** Appends one entry to the task's event stream and tells listeners. */
  emit(task: string, event: string, jobId: string, fields: Record<string, string> = {}): void {
    const queue = this.task(task);
    queue.streamLength = Math.min(STREAM_CAP, queue.streamLength + 1);
    const at = this.now();
    const id = queue.lastStreamId = nextStreamId(queue.lastStreamId, at);
    const entry: StoreEvent = { task, event, jobId, fields, at, id };
    queue.stream.push(entry);
    if (queue.stream.length > STREAM_CAP * 1.1) {
      queue.stream.splice(0, queue.stream.length - STREAM_CAP);
      queue.streamTrimmed = true;
    }
    for (const listener of this.#listeners) listener(entry);
  }

  // ── the taskora scripts ────────────────────────────────────────────

  /** enqueue / enqueueDelayed: a new job in wait, prioritized or delayed. */
  enqueue(task: string, input: DispatchInput): StoredJob {
    const now = this.now();
    const priority = input.priority ?? 0;
    const delay = input.delay ?? 0;
    const job: StoredJob = {
      id: input.id,
      task,
      state: delay > 0 ? "delayed" : "waiting",
      data: input.data,
      result: null,
      error: null,
      progress: null,
      attempt: 1,
      maxAttempts: input.maxAttempts ?? 1,
      version: input.version ?? 1,
      priority,
      createdAt: now,
      processedAt: null,
      finishedAt: null,
      runAt: delay > 0 ? now + delay : null,
      cancelledAt: null,
      cancelReason: null,
      expireAt: input.expireAt ?? null,
      stalledCount: 0,
      workflow: input.workflow ?? null,
      logs: [],
      ...(delay > 0 ? { delay } : {}),
    };
    this.putJob(job);
    const queue = this.task(task);
    if (delay > 0) {
      queue.delayed.add(job.id, now + delay);
      this.emit(task, "delayed", job.id);
    } else {
      this.#toWaiting(queue, job);
      this.emit(task, "waiting", job.id);
    }
    return job;
  }

  /**
   * The promotion step of moveToActive: delayed and retrying jobs whose time
   * has come go back to waiting, or expire when their TTL has passed.
   * Returns the promoted ids.
   */
  promoteDue(task: string): string[] {
    const queue = this.tasks.get(task);
    if (!queue) return [];
    const now = this.now();
    const due: string[] = [];
    for (const { member, score } of queue.delayed.ascending()) {
      if (score > now || due.length === 100) break;
      due.push(member);
    }
    const promoted: string[] = [];
    // taskora walks the batch from its end, LPUSHing each job.
    for (const id of due.reverse()) {
      queue.delayed.remove(id);
      const job = queue.jobs.get(id);
      if (!job) continue;
      job.runAt = null;
      if (job.expireAt !== null && job.expireAt > 0 && now >= job.expireAt) {
        this.#expire(queue, job, now);
        continue;
      }
      this.#toWaiting(queue, job);
      promoted.push(id);
      this.emit(task, "promoted", id);
    }
    return promoted;
  }

  /**
   * The claim step of moveToActive: pops the wait list (tail) first, then the
   * prioritized set, expiring jobs past their TTL; the claimed job becomes active.
   */
  claim(task: string): StoredJob | null {
    const queue = this.tasks.get(task);
    if (!queue) return null;
    const now = this.now();
    for (;;) {
      const id = queue.wait.shift() ?? queue.prioritized.popMin()?.member;
      if (id === undefined) return null;
      const job = queue.jobs.get(id);
      if (!job) continue;
      if (job.expireAt !== null && job.expireAt > 0 && now >= job.expireAt) {
        this.#expire(queue, job, now);
        continue;
      }
      queue.active.unshift(id);
      queue.locks.set(id, { token: crypto.randomUUID(), expiresAt: now + JOB_LOCK_TTL_MS });
      job.state = "active";
      job.processedAt = now;
      this.emit(task, "active", id);
      return job;
    }
  }

  /** ack: an active job completes with its result; counts toward throughput. */
  complete(task: string, id: string, result: unknown): StoredJob | null {
    const job = this.#takeActive(task, id);
    if (!job) return null;
    const now = this.now();
    job.state = "completed";
    job.finishedAt = now;
    job.result = result;
    this.touch(job);
    this.addFinished(job, "completed", now);
    this.countFinished(task, "completed", now);
    this.emit(task, "completed", id, {
      result: JSON.stringify(result) ?? "null",
      duration: String(now - (job.processedAt ?? now)),
    });
    return job;
  }

  /**
   * fail: an active job fails. With a `retryDelay` it is retried (attempt + 1,
   * `retrying` in the delayed set until now + retryDelay); without one it fails
   * for good and counts toward throughput.
   */
  fail(task: string, id: string, error: string, retryDelay: number | null): StoredJob | null {
    const job = this.#takeActive(task, id);
    if (!job) return null;
    const now = this.now();
    job.error = error;
    if (retryDelay !== null && retryDelay >= 0) {
      job.attempt++;
      job.state = "retrying";
      job.runAt = now + retryDelay;
      this.touch(job);
      this.task(task).delayed.add(id, now + retryDelay);
      this.emit(task, "retrying", id, {
        attempt: String(job.attempt),
        nextAttemptAt: String(now + retryDelay),
        error,
      });
    } else {
      job.state = "failed";
      job.finishedAt = now;
      this.touch(job);
      this.addFinished(job, "failed", now);
      this.countFinished(task, "failed", now);
      this.emit(task, "failed", id, { error, attempt: String(job.attempt) });
    }
    return job;
  }

  /**
   * cancel: a waiting, delayed or retrying job is cancelled at once; an active
   * one is only flagged (`cancelledAt`) for its worker to stop, which then
   * calls {@link finishCancel}. With `stampCancelledAt` a job cancelled at
   * once gets `cancelledAt` too, as the board's own cancel writes it (taskora's
   * CANCEL sets it only on active jobs).
   */
  cancel(
    task: string,
    id: string,
    reason = "",
    options: { stampCancelledAt?: boolean } = {},
  ): CancelOutcome {
    const queue = this.tasks.get(task);
    const job = queue?.jobs.get(id);
    if (!queue || !job) return "not-cancellable";
    const now = this.now();
    switch (job.state) {
      case "waiting": {
        const index = queue.wait.indexOf(id);
        if (index >= 0) queue.wait.splice(index, 1);
        else queue.prioritized.remove(id);
        break;
      }
      case "delayed":
      case "retrying":
        queue.delayed.remove(id);
        job.runAt = null;
        break;
      case "active":
        job.cancelledAt = now;
        if (reason) job.cancelReason = reason;
        this.touch(job);
        return "flagged";
      default:
        return "not-cancellable";
    }
    job.state = "cancelled";
    job.finishedAt = now;
    if (options.stampCancelledAt) job.cancelledAt = now;
    if (reason) job.cancelReason = reason;
    this.touch(job);
    this.addFinished(job, "cancelled", now);
    this.emit(task, "cancelled", id, { reason });
    return "cancelled";
  }

  /** finishCancel: the worker of a flagged active job has stopped it. */
  finishCancel(task: string, id: string): StoredJob | null {
    const job = this.#takeActive(task, id);
    if (!job) return null;
    const now = this.now();
    job.state = "cancelled";
    job.finishedAt = now;
    this.touch(job);
    this.addFinished(job, "cancelled", now);
    this.emit(task, "cancelled", id, { reason: job.cancelReason ?? "" });
    return job;
  }

  /**
   * retryDLQ, widened to cancelled and expired jobs: such a job leaves its
   * finished set and goes back to waiting as a fresh dispatch (see
   * {@link #requeue}). Returns the job, or null when it is not in the set of
   * its state.
   */
  retry(task: string, id: string): StoredJob | null {
    const queue = this.tasks.get(task);
    const job = queue?.jobs.get(id);
    if (!queue || !job) return null;
    if (job.state !== "failed" && job.state !== "cancelled" && job.state !== "expired") return null;
    if (!queue.finished[job.state].remove(id)) return null;
    this.#requeue(queue, job);
    return job;
  }

  /**
   * A delayed or retrying job runs now, as taskora's promotion in
   * moveToActive moves it (see {@link promoteDue}), keeping its attempt.
   * Returns whether it was promoted (false: not in the delayed set).
   */
  promote(task: string, id: string): boolean {
    const queue = this.tasks.get(task);
    const job = queue?.jobs.get(id);
    if (!queue || !job || (job.state !== "delayed" && job.state !== "retrying")) return false;
    if (!queue.delayed.remove(id)) return false;
    job.runAt = null;
    this.#toWaiting(queue, job);
    this.touch(job);
    this.emit(task, "promoted", id);
    return true;
  }

  /**
   * retryAllDLQ: takes the `limit` longest-failed members of the failed set
   * and sends those whose job still says `failed` back to waiting (a member
   * whose job is gone or moved on is only dropped from the set). Returns how
   * many members were taken (the caller loops while a batch is full) and
   * how many jobs were retried.
   */
  retryFailed(task: string, limit: number): { taken: number; retried: number } {
    const queue = this.tasks.get(task);
    if (!queue) return { taken: 0, retried: 0 };
    const ids = queue.finished.failed.range(0, limit);
    let retried = 0;
    for (const id of ids) {
      queue.finished.failed.remove(id);
      const job = queue.jobs.get(id);
      if (job?.state !== "failed") continue;
      this.#requeue(queue, job);
      retried++;
    }
    return { taken: ids.length, retried };
  }

  /**
   * cleanJobs: up to `limit` jobs of a finished set that finished at or before
   * `cutoff` (ms), oldest first, are deleted with their logs. Returns how many.
   */
  /** How many jobs of a finished set finished at or before `cutoff`. */
  countFinishedBefore(task: string, state: FinishedState, cutoff: number): number {
    const queue = this.tasks.get(task);
    if (!queue) return 0;
    let count = 0;
    for (const { score } of queue.finished[state].ascending()) {
      if (score > cutoff) break;
      count++;
    }
    return count;
  }

  clean(task: string, state: FinishedState, cutoff: number, limit: number): number {
    const queue = this.tasks.get(task);
    if (!queue) return 0;
    const ids: string[] = [];
    for (const { member, score } of queue.finished[state].ascending()) {
      if (score > cutoff || ids.length >= limit) break;
      ids.push(member);
    }
    for (const id of ids) {
      queue.finished[state].remove(id);
      this.deleteJob(task, id);
    }
    return ids.length;
  }

  /**
   * extendLock: the worker of an active job renews its lock (and leaves the
   * stalled set); a lock that is gone stays gone, as taskora's token check
   * refuses it.
   */
  extendLock(task: string, id: string): void {
    const queue = this.tasks.get(task);
    const lock = queue && this.lockOf(queue.locks.get(id) ?? null);
    if (!queue || !lock) return;
    lock.expiresAt = this.now() + JOB_LOCK_TTL_MS;
    queue.stalled.delete(id);
  }

  /** `lock`, or null once it has expired (Redis would have dropped the key by then). */
  lockOf(lock: StoredLock | null): StoredLock | null {
    return lock && (lock.expiresAt === null || lock.expiresAt > this.now()) ? lock : null;
  }

  /** A progress update of an active job (a number or an object). */
  setProgress(task: string, id: string, value: number | Record<string, unknown>): void {
    const job = this.tasks.get(task)?.jobs.get(id);
    if (!job) return;
    job.progress = value;
    this.touch(job);
    this.emit(task, "progress", id, { value: JSON.stringify(value) });
  }

  /** Appends to a job's log list. */
  log(task: string, id: string, entry: LogEntry): void {
    const job = this.tasks.get(task)?.jobs.get(id);
    if (!job) return;
    job.logs.push(entry);
    this.touch(job);
  }

  /**
   * A finished job back to waiting as a fresh dispatch: attempt 1, `ts` now
   * (so it queues behind jobs dispatched meanwhile), a `waiting` event.
   * Everything its last run left behind is cleared: `error`, `finishedOn` and
   * `result` as taskora's retryDLQ does, and also `processedOn`, `progress`,
   * the cancel fields and `stalledCount`, so it reads like a new job, a worker
   * does not take an old `cancelledAt` for a cancel request, and a job that
   * failed by stalling is not failed again at its first stall.
   */
  #requeue(queue: TaskQueue, job: StoredJob): void {
    Object.assign(job, {
      attempt: 1,
      createdAt: this.now(),
      error: null,
      result: null,
      progress: null,
      processedAt: null,
      finishedAt: null,
      runAt: null,
      cancelledAt: null,
      cancelReason: null,
      stalledCount: 0,
      delay: undefined,
    });
    this.#toWaiting(queue, job);
    this.touch(job);
    this.emit(queue.name, "waiting", job.id);
  }

  #toWaiting(queue: TaskQueue, job: StoredJob): void {
    job.state = "waiting";
    if (job.priority > 0) queue.prioritized.add(job.id, priorityScore(job.priority, job.createdAt));
    else queue.wait.push(job.id);
  }

  #expire(queue: TaskQueue, job: StoredJob, now: number): void {
    job.state = "expired";
    job.finishedAt = now;
    this.touch(job);
    this.addFinished(job, "expired", now);
    this.emit(queue.name, "expired", job.id);
  }

  #takeActive(task: string, id: string): StoredJob | null {
    const queue = this.tasks.get(task);
    const job = queue?.jobs.get(id);
    if (!queue || !job) return null;
    const index = queue.active.indexOf(id);
    if (index < 0) return null;
    queue.active.splice(index, 1);
    queue.locks.delete(id);
    return job;
  }
}
