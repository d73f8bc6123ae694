/**
 * `MemorySource`: the TaskSource port answered from a {@link MemoryStore},
 * following the same rules as the Redis source reading taskora's keyspace
 * (the contract suite holds both to the same answers).
 *
 * @module
 */

import { MemoryBoardStore } from "../../store/memory/mod.ts";
import { pairStore } from "../../store/pairing.ts";
import { acceptedJobs } from "../accepted_jobs.ts";
import {
  type AttemptEntry,
  type AttemptHistory,
  collectAttempts,
  HISTORY_EVENTS,
} from "../attempt_history.ts";
import { type DeadLetterEntry, groupDeadLetters, inGroup } from "../dead_letters.ts";
import {
  type ActiveLocks,
  type BeforeBatch,
  type BulkAction,
  type BulkIdSelector,
  type BulkStateSelector,
  type BulkStep,
  type BulkStepResult,
  type DeadLetterGroup,
  FINISHED_STATES,
  type FinishedState,
  type FinishedTiming,
  JOB_DETAIL_LOGS,
  JOB_STATES,
  type JobActionResult,
  type JobDetail,
  type JobFilter,
  type JobMatch,
  type JobPage,
  type JobRecord,
  type JobRef,
  type JobState,
  type LogEntry,
  type LogPage,
  type QueueHeads,
  type QueueSnapshot,
  type QueueStats,
  type RerunResult,
  RETRYABLE_STATES,
  type RetryableState,
  type SchedulePatch,
  type ScheduleRecord,
  type SchedulerLeadership,
  type SearchPosition,
  type SearchSlice,
  type StoreInfo,
  type TaskActivity,
  type TaskEvent,
  type TaskFilter,
  type TaskLiveness,
  type TaskSource,
  type TaskStorage,
  type ThroughputBucket,
  type ThroughputQuery,
  type TriggerResult,
  type VersionCounts,
  type VersionDistribution,
  type WorkflowCancelResult,
  type WorkflowDetail,
  type WorkflowPage,
  type WorkflowState,
  type WorkflowSummary,
} from "../types.ts";
import { snapshotsOf } from "../snapshots.ts";
import { taskActivity } from "./activity.ts";
import { decodeSchedule, decodeWorkflow, scheduleLastJobId } from "../wire/decode.ts";
import { decodeEventFields } from "../wire/event_fields.ts";
import { triggerJobId } from "../trigger_id.ts";
import * as bulk from "./bulk.ts";
import * as jobActions from "./job_actions.ts";
import { schedulerLeadership, stalledJobs, taskLiveness } from "./liveness.ts";
import { minuteCounts } from "./minute_counts.ts";
import { rerunsOf } from "./reruns.ts";
import { jobHolds } from "./diagnosis.ts";
import { eventsTrimmedBefore } from "../trimmed_events.ts";
import type { JobHolds } from "../../contract/diagnosis.ts";
import type { DrainScan } from "../../contract/queue_eta.ts";
import { drainScan } from "./drain_scan.ts";
import * as scheduleActions from "./schedule_actions.ts";
import type { Simulator } from "./simulator.ts";
import { KEY_OVERHEAD_BYTES, type MemoryStore, type StoredJob, TaskQueue } from "./store.ts";
import { OLDEST_WAITING_SCAN, queuedSince } from "../../contract/health.ts";
import { explainUnstarted } from "../../contract/workflow_holds.ts";
import { searchQueue } from "./search.ts";
import { cancelWorkflow } from "./workflow_actions.ts";

/** What an idle Redis reports as used memory; the estimate starts there. */
const BASE_MEMORY_BYTES = 1_000_000;

/** Copies of log entries, so a caller never holds the store's own. */
function copyLogs(logs: readonly LogEntry[]): LogEntry[] {
  return logs.map((log) => ({ ...log }));
}

/** A job's record (its hash), without its logs. */
function toRecord(job: StoredJob): JobRecord {
  return {
    id: job.id,
    task: job.task,
    state: job.state,
    data: job.data,
    result: job.result,
    error: job.error,
    progress: job.progress,
    attempt: job.attempt,
    maxAttempts: job.maxAttempts,
    version: job.version,
    priority: job.priority,
    createdAt: job.createdAt,
    processedAt: job.processedAt,
    finishedAt: job.finishedAt,
    runAt: job.runAt,
    cancelledAt: job.cancelledAt,
    cancelReason: job.cancelReason,
    expireAt: job.expireAt,
    stalledCount: job.stalledCount,
    workflow: job.workflow ? { ...job.workflow } : null,
  };
}

/**
 * Bytes as Redis's `used_memory_human` shows them: `812B`, `1.02K`, `3.40M`, `1.10G`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(humanBytes(3_565_158), "3.40M");
 * ```
 */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  const units = ["K", "M", "G", "T"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)}${units[unit]}`;
}

/** Ids of a task's jobs in one state, in the order the board lists them. */
function* idsInState(queue: TaskQueue, state: JobState): Generator<string> {
  switch (state) {
    case "waiting":
      // Workers pop the wait list before the prioritized set: list in that order.
      yield* queue.wait;
      for (const { member } of queue.prioritized.ascending()) yield member;
      return;
    case "active":
      yield* queue.active;
      return;
    case "delayed":
    case "retrying":
      for (const { member } of queue.delayed.ascending()) {
        if (queue.jobs.get(member)?.state === state) yield member;
      }
      return;
    default:
      for (const { member } of queue.finished[state].descending()) yield member;
  }
}

function countState(queue: TaskQueue, state: JobState): number {
  switch (state) {
    case "waiting":
      return queue.wait.length + queue.prioritized.size;
    case "active":
      return queue.active.length;
    case "delayed":
    case "retrying": {
      let count = 0;
      for (const { member } of queue.delayed.ascending()) {
        if (queue.jobs.get(member)?.state === state) count++;
      }
      return count;
    }
    default:
      return queue.finished[state].size;
  }
}

/** The TaskSource of an in-process store, optionally driven by the workload simulator. */
export class MemorySource implements TaskSource {
  /** The state it answers from; the actions below change it through its transitions. */
  readonly store: MemoryStore;
  /** The workload simulator, when the source runs one. */
  readonly simulator: Simulator | null;
  #closed = false;
  /**
   * What the boards over this source keep, on the store's clock: every board
   * on it sees it, as replicas on one Redis do.
   */
  readonly boardStore: MemoryBoardStore;

  /** A source over `store`; `close()` stops `simulator` when given. */
  constructor(store: MemoryStore, simulator: Simulator | null = null) {
    this.store = store;
    this.simulator = simulator;
    this.boardStore = new MemoryBoardStore({ now: () => store.now() });
    pairStore(this, this.boardStore);
  }

  /** Each task's delayed and retrying jobs due after `at` (an unknown task has none). */
  countDueAfter(tasks: readonly string[], at: number): Promise<Map<string, number>> {
    return Promise.resolve(
      new Map(tasks.map((task) => [task, this.store.tasks.get(task)?.delayed.countAbove(at) ?? 0])),
    );
  }

  /** Sorted names of every task with any key. */
  listTasks(): Promise<string[]> {
    return Promise.resolve([...this.store.tasks.keys()].sort());
  }

  /** Same as {@link listTasks}: the store is its own cache. */
  refreshTasks(): Promise<string[]> {
    return this.listTasks();
  }

  /** Counts per state; a task the store does not know counts zero everywhere. */
  getStats(tasks: string[]): Promise<Map<string, QueueStats>> {
    const stats = new Map<string, QueueStats>();
    for (const task of tasks) {
      const queue = this.store.tasks.get(task);
      stats.set(
        task,
        Object.fromEntries(
          JOB_STATES.map((state) => [state, queue ? countState(queue, state) : 0]),
        ) as QueueStats,
      );
    }
    return Promise.resolve(stats);
  }

  /** The store counts exactly: every figure is as of now. */
  retryingAsOf(tasks: string[]): Map<string, number | null> {
    const now = Date.now();
    return new Map(tasks.map((task) => [task, now]));
  }

  /** Counts, heads and stalled jobs per task, read one after the other (see `snapshots.ts`). */
  getQueueSnapshots(tasks: string[]): Promise<Map<string, QueueSnapshot>> {
    return snapshotsOf(this, tasks, (task) => {
      const queue = this.store.tasks.get(task);
      if (!queue) return { total: 0, checked: 0 };
      const { total, checked } = stalledJobs(this.store, queue);
      return { total, checked };
    });
  }

  /**
   * The job waiting longest (of both ends of the wait list and the
   * prioritized set, as the Redis source reads them), the job active longest
   * (the active list's tail) and the one due first, per task.
   */
  getQueueHeads(tasks: string[]): Promise<Map<string, QueueHeads>> {
    const heads = new Map<string, QueueHeads>();
    for (const task of tasks) {
      const queue = this.store.tasks.get(task);
      const active = queue?.jobs.get(queue.active[queue.active.length - 1]);
      const due = queue?.delayed.peekMin();
      const waiting = (queue ? waitingEnds(queue) : [])
        .map((id) => queue?.jobs.get(id))
        .filter((job) => job !== undefined)
        .map((job) => ({ id: job.id, since: queuedSince({ ...job, delay: job.delay ?? 0 }) }))
        .sort((a, b) => a.since - b.since);
      heads.set(task, {
        oldestWaiting: waiting[0] ?? null,
        oldestActive: active?.processedAt != null
          ? { id: active.id, since: active.processedAt }
          : null,
        nextDue: due ? { id: due.member, at: due.score } : null,
      });
    }
    return Promise.resolve(heads);
  }

  /** The newest `limit` of the task's completed and failed jobs (finished at or after `since`). */
  getFinishedTimings(task: string, limit: number, since = -Infinity): Promise<FinishedTiming[]> {
    return Promise.try(() => {
      const queue = this.#queue(task);
      const newest: StoredJob[] = [];
      for (const state of ["completed", "failed"] as const) {
        let taken = 0;
        for (const { member, score } of queue.finished[state].descending()) {
          if (score < since || taken === limit) break;
          taken++;
          const job = queue.jobs.get(member);
          if (job && job.finishedAt !== null) newest.push(job);
        }
      }
      return newest
        .sort((a, b) => b.finishedAt! - a.finishedAt!)
        .slice(0, limit)
        .map((job) => ({
          id: job.id,
          createdAt: job.createdAt,
          delay: job.delay ?? 0,
          processedAt: job.processedAt,
          finishedAt: job.finishedAt!,
        }));
    });
  }

  /** Keys taskora would hold for the task and their estimated memory. */
  getTaskStorage(task: string): Promise<TaskStorage> {
    return Promise.try(() => {
      const queue = this.#queue(task);
      let keyCount = queue.jobs.size;
      for (const job of queue.jobs.values()) if (job.logs.length > 0) keyCount++;
      const structures = [
        queue.wait.length,
        queue.prioritized.size,
        queue.active.length,
        queue.delayed.size,
        ...FINISHED_STATES.map((state) => queue.finished[state].size),
        queue.streamLength,
      ].filter((size) => size > 0).length;
      let metricKeys = 0;
      for (const counts of queue.metrics.values()) {
        metricKeys += (counts.completed > 0 ? 1 : 0) + (counts.failed > 0 ? 1 : 0);
      }
      keyCount += structures + metricKeys;
      return {
        keyCount,
        memoryBytes: queue.jobBytes + queue.structureBytes + structures * KEY_OVERHEAD_BYTES,
      };
    });
  }

  /**
   * One page of jobs: waiting (the wait list, then the prioritized set) and active in
   * run order, delayed and retrying by run time, finished newest first.
   */
  listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage> {
    return Promise.try(() => {
      const queue = this.#queue(task);
      const to = offset + limit;
      const jobs: JobRecord[] = [];
      let total = 0;
      for (const id of idsInState(queue, state)) {
        if (total >= offset && total < to) {
          const job = queue.jobs.get(id);
          // A member whose hash is gone still counts, as ZCARD / LLEN would.
          if (job) jobs.push(toRecord(job));
        }
        total++;
      }
      return { jobs, total };
    });
  }

  /** One slice of a job search; see `search.ts`. */
  searchJobs(
    task: string,
    state: JobState,
    filter: JobFilter,
    position: SearchPosition | null,
    want: number,
  ): Promise<SearchSlice> {
    return Promise.try(() => {
      const queue = this.#queue(task);
      return searchQueue(queue, state, idsInState(queue, state), toRecord, filter, position, want);
    });
  }

  /** The jobs' states now, null for one gone. */
  getJobStates(jobs: readonly JobRef[]): Promise<(JobState | null)[]> {
    return Promise.resolve(
      jobs.map(({ id, task }) => this.store.tasks.get(task)?.jobs.get(id)?.state ?? null),
    );
  }

  /** The task holding the job, or null. */
  findJobTask(jobId: string): Promise<string | null> {
    return Promise.resolve(this.store.findJob(jobId)?.task ?? null);
  }

  /** A job with its newest logs, or null. */
  getJob(jobId: string): Promise<JobDetail | null> {
    const job = this.store.findJob(jobId);
    if (!job) return Promise.resolve(null);
    const logs = copyLogs(job.logs.slice(-JOB_DETAIL_LOGS));
    const queue = this.store.task(job.task);
    const [oldest] = queue.stream;
    const trimmed = eventsTrimmedBefore(job.id, job.createdAt, {
      oldest: oldest ? { at: oldest.at, jobId: oldest.jobId, event: oldest.event } : null,
      trimmed: queue.streamTrimmed,
    });
    return Promise.resolve({
      ...toRecord(job),
      logs,
      logCount: job.logs.length,
      eventsTrimmedBefore: trimmed,
    });
  }

  /** A page of a job's log, oldest first, or null. */
  getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null> {
    const job = this.store.findJob(jobId);
    if (!job) return Promise.resolve(null);
    const logs = copyLogs(job.logs.slice(offset, offset + limit));
    return Promise.resolve({ logs, total: job.logs.length });
  }
  /** A job's failed attempts and runs from the stream entries this store keeps (1,000 per chunk, as Redis). */
  async getAttemptHistory(jobId: string): Promise<AttemptHistory | null> {
    const job = this.store.findJob(jobId);
    if (!job) return null;
    const stream = this.store.task(job.task).stream;
    let end = stream.length;
    return await collectAttempts(job, () => {
      const start = Math.max(0, end - 1000);
      const entries = stream.slice(start, end).reverse();
      end = start;
      const found = entries
        .filter((e) => e.jobId === jobId && HISTORY_EVENTS.includes(e.event))
        .map((e): AttemptEntry => {
          const fields = decodeEventFields(e.fields);
          return {
            event: e.event,
            attempt: typeof fields.attempt === "number" ? fields.attempt : null,
            error: typeof fields.error === "string" && fields.error !== "" ? fields.error : null,
            at: e.at,
            nextAttemptAt: typeof fields.nextAttemptAt === "number" ? fields.nextAttemptAt : null,
            action: e.fields.action ?? null,
          };
        });
      return Promise.resolve({
        found,
        scanned: entries.length,
        oldestAt: entries.at(-1)?.at ?? null,
        reachedStart: start === 0,
      });
    });
  }

  /**
   * Jobs whose id starts with `prefix`, sorted by id, with their state:
   * every job of the store is looked at (it holds a bounded number, see
   * `retention`).
   */
  async findJobsByIdPrefix(
    prefix: string,
    limit: number,
    accept?: TaskFilter,
  ): Promise<JobMatch[]> {
    const found: JobMatch[] = [];
    for (const queue of this.store.tasks.values()) {
      for (const [id, job] of queue.jobs) {
        if (id.startsWith(prefix)) found.push({ id, task: queue.name, state: job.state });
      }
    }
    found.sort((a, b) => (a.id < b.id ? -1 : 1));
    return await acceptedJobs(found, limit, accept);
  }

  /** Versions of waiting + active, delayed and retrying jobs; the highest `_v` of any job. */
  getVersionDistribution(task: string): Promise<VersionDistribution> {
    return Promise.try(() => {
      const queue = this.#queue(task);
      const tally = (counts: VersionCounts, id: string) => {
        const job = queue.jobs.get(id);
        if (job) counts[job.version] = (counts[job.version] ?? 0) + 1;
      };
      const distribution: VersionDistribution = {
        queue: {},
        delayed: {},
        retrying: {},
        latestVersion: null,
      };
      for (const id of idsInState(queue, "waiting")) tally(distribution.queue, id);
      for (const id of queue.active) tally(distribution.queue, id);
      for (const { member } of queue.delayed.ascending()) {
        const state = queue.jobs.get(member)?.state;
        if (state === "delayed" || state === "retrying") tally(distribution[state], member);
      }
      for (const job of queue.jobs.values()) {
        if (distribution.latestVersion === null || job.version > distribution.latestVersion) {
          distribution.latestVersion = job.version;
        }
      }
      return distribution;
    });
  }

  /** Every schedule, sorted by name, with the state of its last run's job. */
  listSchedules(): Promise<ScheduleRecord[]> {
    const names = [...this.store.schedules.keys()].sort();
    return Promise.resolve(names.map((name) => this.#schedule(name)));
  }

  /** Workflows (only those in `state`, when given), newest first. */
  listWorkflows(offset: number, limit: number, state?: WorkflowState): Promise<WorkflowPage> {
    const all = this.#workflows()
      .filter((workflow) => state === undefined || workflow.state === state)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const workflows: WorkflowSummary[] = all.slice(offset, offset + limit).map((
      { id, name, state, createdAt, nodeCount, tasks },
    ) => ({ id, name, state, createdAt, nodeCount, tasks }));
    return Promise.resolve({ workflows, total: all.length });
  }

  /** A workflow in full, with each node's job state, or null. */
  getWorkflow(id: string): Promise<WorkflowDetail | null> {
    const hash = this.store.workflows.get(id);
    const workflow = hash ? decodeWorkflow(id, hash) : null;
    for (const node of workflow?.nodes ?? []) {
      node.jobState = this.store.tasks.get(node.taskName)?.jobs.get(node.jobId)?.state ?? null;
    }
    return Promise.resolve(workflow && explainUnstarted(workflow));
  }

  /**
   * Failed jobs (of one error group, with `pattern`), most recently failed
   * first (ties: task name, then id descending).
   */
  listDeadLetters(
    offset: number,
    limit: number,
    task?: string,
    pattern?: string,
  ): Promise<JobPage> {
    return Promise.try(() => {
      const failed = this.#failed(task);
      const entries = pattern === undefined ? failed : inGroup(failed, pattern);
      const jobs = entries.slice(offset, offset + limit)
        .map((entry) => this.store.tasks.get(entry.task)?.jobs.get(entry.id))
        .filter((job): job is StoredJob => job !== undefined)
        .map(toRecord);
      return { jobs, total: entries.length };
    });
  }

  /** Failed jobs grouped by error pattern, most frequent first. */
  groupDeadLetters(task?: string): Promise<DeadLetterGroup[]> {
    return Promise.try(() => groupDeadLetters(this.#failed(task)));
  }

  /** Each task's own buckets; zeros for a task the store does not know. */
  getThroughputByTask(
    tasks: string[],
    query: Omit<ThroughputQuery, "task"> = {},
  ): Promise<Map<string, ThroughputBucket[]>> {
    return Promise.try(() => {
      const byTask = new Map<string, ThroughputBucket[]>();
      for (const task of tasks) {
        const queue = this.store.tasks.get(task);
        byTask.set(task, this.#buckets(queue ? [queue] : [], query));
      }
      return byTask;
    });
  }

  /** Completed and failed counts per bucket, oldest first, ending with the current bucket. */
  getThroughput(query: ThroughputQuery = {}): Promise<ThroughputBucket[]> {
    return Promise.try(() => {
      const queues = query.task === undefined
        ? [...this.store.tasks.values()]
        : [this.#queue(query.task)];
      return this.#buckets(queues, query);
    });
  }

  /** The finished-job counts of `queues` summed per bucket, oldest first (see `minute_counts.ts`). */
  #buckets(
    queues: readonly TaskQueue[],
    query: Omit<ThroughputQuery, "task">,
  ): ThroughputBucket[] {
    const bucketMs = query.bucketMs ?? 60_000;
    const count = query.count ?? 1_440;
    const last = Math.floor(this.store.now() / bucketMs) * bucketMs;
    const first = last - (count - 1) * bucketMs;
    const buckets: ThroughputBucket[] = Array.from({ length: count }, (_, i) => ({
      timestamp: first + i * bucketMs,
      completed: 0,
      failed: 0,
    }));
    for (const queue of queues) {
      for (const [minute, counts] of minuteCounts(queue, first)) {
        const index = (Math.floor(minute / bucketMs) * bucketMs - first) / bucketMs;
        if (index < 0 || index >= count) continue;
        buckets[index].completed += counts.completed;
        buckets[index].failed += counts.failed;
      }
    }
    return buckets;
  }

  /** An estimate of what Redis would report for the same data. */
  getStoreInfo(): Promise<StoreInfo> {
    let bytes = BASE_MEMORY_BYTES;
    for (const queue of this.store.tasks.values()) bytes += queue.jobBytes + queue.structureBytes;
    for (const hash of this.store.workflows.values()) {
      bytes += KEY_OVERHEAD_BYTES;
      for (const [field, value] of Object.entries(hash)) bytes += field.length + value.length + 8;
    }
    for (const [name, { json }] of this.store.schedules) bytes += name.length + json.length + 24;
    return Promise.resolve({
      version: "memory",
      usedMemory: humanBytes(bytes),
      usedMemoryBytes: bytes,
      uptime: Math.floor((this.store.now() - this.store.createdAt) / 1000),
      connected: true,
    });
  }

  // ── actions ─────────────────────────────────────────────────────────

  /** Sends a failed (or cancelled) job back to waiting, attempt 1, as a fresh dispatch. */
  retryJob(
    jobId: string,
    from?: readonly RetryableState[],
  ): Promise<JobActionResult> {
    return Promise.try(() => jobActions.retryJob(this.store, jobId, from));
  }

  /** Sends a failed or cancelled job back to waiting with new data. */
  retryJobWithData(jobId: string, data: unknown): Promise<JobActionResult> {
    return Promise.try(() =>
      jobActions.retryJob(this.store, jobId, RETRYABLE_STATES, { value: data })
    );
  }

  /** Dispatches a new job of the job's task with its data. */
  rerunJob(jobId: string): Promise<RerunResult> {
    return Promise.try(() => jobActions.rerunJob(this.store, jobId));
  }

  /** Sends the failed jobs of one error group back to waiting, 100 per batch. */
  async retryDeadLetterGroup(
    pattern: string,
    task?: string,
    beforeBatch?: BeforeBatch,
  ): Promise<{ retried: number }> {
    const members = inGroup(this.#failed(task), pattern);
    let retried = 0;
    for (let start = 0; start < members.length; start += jobActions.RETRY_BATCH) {
      if (beforeBatch && !await beforeBatch()) break;
      // A job retried meanwhile (between two batches) is skipped, as on Redis.
      for (const { id } of members.slice(start, start + jobActions.RETRY_BATCH)) {
        if (this.store.findJob(id)?.state !== "failed") continue;
        jobActions.retryJob(this.store, id, ["failed"]);
        retried++;
      }
    }
    return { retried };
  }

  /** Cancels a waiting, delayed or retrying job, or flags an active one for its worker. */
  cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    return Promise.try(() => jobActions.cancelJob(this.store, jobId, reason));
  }

  /** Sends every failed job of one task (or of every task) back to waiting, in batches. */
  async retryAllFailed(task?: string, beforeBatch?: BeforeBatch): Promise<{ retried: number }> {
    const tasks = task === undefined ? await this.refreshTasks() : [task];
    return { retried: await jobActions.retryAllFailed(this.store, tasks, beforeBatch) };
  }

  /** Deletes finished jobs of a state that finished more than `olderThanMs` ago. */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
  ): Promise<{ removed: number }> {
    return { removed: await jobActions.cleanJobs(this.store, task, state, olderThanMs) };
  }

  /** How many jobs a clean would remove now. */
  countCleanable(task: string, state: FinishedState, olderThanMs: number): Promise<number> {
    return Promise.try(() => jobActions.countCleanable(this.store, task, state, olderThanMs));
  }

  /** How many jobs a bulk action would act on now. */
  countBulk(action: BulkAction, selector: BulkIdSelector | BulkStateSelector): Promise<number> {
    return Promise.try(() => {
      const queue = this.#queue(selector.task);
      return "ids" in selector
        ? bulk.countNamed(queue, action, selector)
        : countState(queue, selector.state);
    });
  }

  /** One step of a bulk action; see `bulk.ts`. */
  bulkStep(
    task: string,
    action: BulkAction,
    step: BulkStep,
    reason?: string,
  ): Promise<BulkStepResult> {
    return Promise.try(() => bulk.bulkStep(this.store, this.#queue(task), action, step, reason));
  }

  /** Pauses a schedule. */
  pauseSchedule(name: string): Promise<ScheduleRecord> {
    return Promise.try(() => {
      scheduleActions.pauseSchedule(this.store, name);
      return this.#schedule(name);
    });
  }

  /** Resumes a schedule, its next run computed from now. */
  resumeSchedule(name: string): Promise<ScheduleRecord> {
    return Promise.try(() => {
      scheduleActions.resumeSchedule(this.store, name);
      return this.#schedule(name);
    });
  }

  /** Dispatches one run of a schedule now (once per idempotency key). */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    const jobId = await triggerJobId(name, idempotencyKey);
    return scheduleActions.triggerSchedule(this.store, name, jobId);
  }

  /** Changes a schedule; the next run is recomputed unless it is paused. */
  updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    return Promise.try(() => {
      scheduleActions.updateSchedule(this.store, name, patch);
      return this.#schedule(name);
    });
  }

  /** Deletes a schedule. */
  removeSchedule(name: string): Promise<void> {
    return Promise.try(() => scheduleActions.removeSchedule(this.store, name));
  }

  /** Cancels a running workflow and its unfinished node jobs. */
  cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult> {
    return Promise.try(() => cancelWorkflow(this.store, id, reason));
  }

  /**
   * Every event the store writes from now on, its fields decoded as the
   * Redis source decodes a stream entry. Delivered a microtask later, as a
   * Redis reader would deliver it after the write, so a listener never runs
   * in the middle of a transition; a listener that throws is logged and does
   * not stop the others.
   */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    let subscribed = true;
    const unsubscribe = this.store.subscribe((event) => {
      const copy: TaskEvent = { ...event, fields: decodeEventFields(event.fields) };
      queueMicrotask(() => {
        if (!subscribed) return;
        try {
          listener(copy);
        } catch (error) {
          console.error("queue-board memory source: an event listener threw", error);
        }
      });
    });
    return () => {
      subscribed = false;
      unsubscribe();
    };
  }

  /** The named jobs' locks and the task's stalled jobs; see `liveness.ts`. */
  getTaskLiveness(task: string, jobIds: readonly string[]): Promise<TaskLiveness> {
    return Promise.try(() => taskLiveness(this.store, this.#queue(task), jobIds));
  }

  /** What holds a job back; see `diagnosis.ts`. */
  getJobHolds(jobId: string): Promise<JobHolds | null> {
    return Promise.try(() => {
      const job = this.store.findJob(jobId);
      return job ? jobHolds(this.store, this.store.task(job.task), job) : null;
    });
  }

  /** Last taken and last finished per task, from the newest `depth` stream entries. */
  getTaskActivity(tasks: readonly string[], depth: number): Promise<Map<string, TaskActivity>> {
    return Promise.resolve(
      new Map(
        tasks.map((task) => [task, taskActivity(this.store.tasks.get(task)?.stream ?? [], depth)]),
      ),
    );
  }

  /** What the task's stream says of its queue's drain since `since`; see `drain_scan.ts`. */
  scanDrain(task: string, since: number, depth: number): Promise<DrainScan> {
    return Promise.resolve(drainScan(this.store.tasks.get(task)?.stream ?? [], since, depth));
  }

  /** Each task's re-runs by taskora's stall check since `since`, as Redis counts them. */
  getTaskReruns(tasks: readonly string[], since: number): Promise<Map<string, number>> {
    return Promise.resolve(
      new Map(
        tasks.map((task) => [task, rerunsOf(this.store.tasks.get(task)?.stream ?? [], since)]),
      ),
    );
  }

  /** The active jobs' count and the locks of the `limit` claimed last. */
  getActiveLocks(task: string, limit: number): Promise<ActiveLocks> {
    return Promise.try(() => {
      const queue = this.#queue(task);
      const liveness = taskLiveness(this.store, queue, queue.active.slice(0, limit));
      return { active: queue.active.length, locks: liveness.known ? liveness.locks : [] };
    });
  }

  /** The scheduler leader lock (the simulator's scheduler holds it while it runs). */
  getSchedulerLeadership(): Promise<SchedulerLeadership> {
    return Promise.resolve(schedulerLeadership(this.store));
  }

  /** Stops the simulator; the store's data stays readable. */
  close(): Promise<void> {
    if (!this.#closed) {
      this.#closed = true;
      this.simulator?.stop();
    }
    return Promise.resolve();
  }

  /** A task's queue; an unknown task reads as an empty one (`checked.ts` refuses it first). */
  #queue(task: string): TaskQueue {
    return this.store.tasks.get(task) ?? new TaskQueue(task);
  }

  /** A stored schedule as the port shows it. */
  #schedule(name: string): ScheduleRecord {
    const { json, nextRun } = this.store.schedules.get(name)!;
    const lastJobId = scheduleLastJobId(json);
    const status = lastJobId ? this.store.findJob(lastJobId)?.state ?? null : null;
    return decodeSchedule(name, json, nextRun, status);
  }

  #workflows(): WorkflowDetail[] {
    const all: WorkflowDetail[] = [];
    for (const [id, hash] of this.store.workflows) {
      const workflow = decodeWorkflow(id, hash);
      if (workflow) all.push(workflow);
    }
    return all;
  }

  /** Failed jobs of one task or all, most recently failed first. */
  #failed(task?: string): DeadLetterEntry[] {
    const queues = task === undefined ? [...this.store.tasks.values()] : [this.#queue(task)];
    const entries: DeadLetterEntry[] = [];
    for (const queue of queues) {
      for (const { member, score } of queue.finished.failed.descending()) {
        entries.push({
          id: member,
          task: queue.name,
          error: queue.jobs.get(member)?.error ?? null,
          failedAt: score,
        });
      }
    }
    // Equal times: by task name, then (the sort being stable) ZREVRANGE order.
    return entries.sort((a, b) =>
      b.failedAt - a.failedAt || (a.task < b.task ? -1 : a.task > b.task ? 1 : 0)
    );
  }
}

/**
 * The waiting jobs whose wait the heads compare: the {@link OLDEST_WAITING_SCAN}
 * at each end of the wait list and of the prioritized set (all when few), as
 * the Redis source reads them.
 */
function waitingEnds(queue: TaskQueue): string[] {
  const scan = OLDEST_WAITING_SCAN;
  const { wait, prioritized } = queue;
  const listEnds = wait.length <= 2 * scan ? wait : [...wait.slice(0, scan), ...wait.slice(-scan)];
  const setEnds = prioritized.size <= 2 * scan
    ? prioritized.range(0, 2 * scan)
    : [...prioritized.range(0, scan), ...prioritized.range(0, scan, true)];
  return [...listEnds, ...setEnds];
}
