/**
 * The board over a taskora App whose store the board cannot reach itself
 * (the memory adapter, or a Redis driver other than ioredis): everything
 * goes through the App's public API (`inspect()`, `deadLetters`,
 * `schedules`, `getRegisteredTasks()`) and its adapter's interface
 * (`app.adapter`, taskora's `Adapter` type, whose observability methods
 * taskora's own board uses).
 *
 * What that API cannot give is refused or left empty, never guessed:
 * - tasks are the App's registered ones (not those of other services);
 * - a cancelled job cannot be retried (`INVALID_STATE`: taskora's API
 *   retries failed jobs only);
 * - the search by the start of an id finds nothing (whole ids work);
 * - storage per task is what the adapter reports (the memory adapter: the
 *   whole store's job count, 0 bytes); no migration lock (the memory adapter
 *   has none).
 *
 * @module
 */

import { type AppDispatch, appDispatch } from "./dispatch.ts";
import { OLDEST_WAITING_SCAN, queuedSince } from "../contract/health.ts";
import { explainUnstarted } from "../contract/workflow_holds.ts";
import { MemoryBoardStore } from "../store/memory/mod.ts";
import { pairStore } from "../store/pairing.ts";
import { BoardError } from "../errors.ts";
import { type DeadLetterEntry, groupDeadLetters, inGroup } from "../source/dead_letters.ts";
import {
  cannotCancel,
  cannotRetry,
  jobNotFound,
  scheduleNotFound,
  workflowNotFound,
} from "../source/refusals.ts";
import {
  type DeadLetterGroup,
  type FinishedState,
  type FinishedTiming,
  JOB_DETAIL_LOGS,
  type JobActionResult,
  type JobDetail,
  type JobMatch,
  type JobPage,
  type JobRecord,
  type JobState,
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
  type StoreInfo,
  type TaskDefinition,
  type TaskEvent,
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
} from "../source/types.ts";
import { snapshotsOf } from "../source/snapshots.ts";
import { decodeEventFields } from "../source/wire/event_fields.ts";
import { decodeJob, decodeJobState, decodeLogs, decodeWorkflow } from "../source/wire/decode.ts";
import { findTask, type TaskoraAppLike } from "./app.ts";
import { appTaskDefinition, DeclaredSchedules } from "./definitions.ts";
import { memoryLedger, rerunThroughApp, type TriggerLedger, triggerThroughApp } from "./trigger.ts";
import { keepMasked } from "../source/keep_masked.ts";

/** taskora's raw job (`Adapter.getJobDetails`). */
interface RawJob {
  fields: Record<string, string>;
  data: string | null;
  result: string | null;
  logs: string[];
}

const ADAPTER_STATES = [
  "waiting",
  "active",
  "delayed",
  "completed",
  "failed",
  "expired",
  "cancelled",
] as const;

type AdapterState = typeof ADAPTER_STATES[number];

/** The part of taskora's `Adapter` interface the board calls. */
interface AdapterApi {
  getState(task: string, jobId: string): Promise<string | null>;
  getJobDetails(task: string, jobId: string): Promise<RawJob | null>;
  listJobDetails(
    task: string,
    state: AdapterState,
    offset: number,
    limit: number,
  ): Promise<{ id: string; details: RawJob }[]>;
  getQueueStats(task: string): Promise<Omit<QueueStats, "retrying">>;
  getVersionDistribution(
    task: string,
  ): Promise<Record<"waiting" | "active" | "delayed", VersionCounts>>;
  getTaskKeyStats(task: string): Promise<TaskStorage>;
  getThroughput(task: string | null, bucket: number, count: number): Promise<ThroughputBucket[]>;
  getServerInfo(): Promise<
    {
      version: string;
      usedMemory: string;
      uptime: number;
      connected: boolean;
      usedMemoryBytes?: number;
    }
  >;
  cancel(
    task: string,
    jobId: string,
    reason?: string,
  ): Promise<"cancelled" | "flagged" | "not_cancellable">;
  cleanJobs(task: string, state: string, before: number, limit: number): Promise<number>;
  listWorkflows(state?: string, offset?: number, limit?: number): Promise<unknown[]>;
  getWorkflowDetail(id: string): Promise<
    {
      state: string;
      createdAt: number;
      graph: unknown;
      nodes: { index: number; state: string; result: string | null; error: string | null }[];
      result: string | null;
      error: string | null;
    } | null
  >;
  cancelWorkflow(id: string, reason?: string): Promise<{ cancelledJobs?: unknown[] } | unknown>;
  subscribe(
    tasks: string[],
    handler: (
      event: { task: string; event: string; jobId: string; fields: Record<string, string> },
    ) => void,
  ): Promise<() => Promise<void>>;
}

/** Batch of a clean through the adapter. */
const CLEAN_BATCH = 1000;

/** Most jobs looked at in one state to split delayed from retrying, or to find a job's task. */
const SCAN_LIMIT = 100_000;

/** Jobs listed per call while looking for a job's task. */
const LOOKUP_PAGE = 1000;

/** The adapter list a job in the hash state `state` sits in (a retrying job waits in `delayed`). */
function adapterState(state: string): AdapterState | null {
  if (state === "retrying") return "delayed";
  return (ADAPTER_STATES as readonly string[]).includes(state) ? state as AdapterState : null;
}

const FINISHED_ADAPTER: Record<FinishedState, AdapterState> = {
  completed: "completed",
  failed: "failed",
  cancelled: "cancelled",
  expired: "expired",
};

/**
 * What the boards on one App keep: its store (the memory adapter) lives in
 * its process, and so does theirs, shared by the boards made on it.
 */
const appBoardStores = new WeakMap<TaskoraAppLike, MemoryBoardStore>();

/** A TaskSource over a taskora App's public API; see the module doc for its limits. */
export class AppApiSource implements TaskSource {
  readonly #app: TaskoraAppLike;
  readonly #adapter: AdapterApi;
  readonly #declared: DeclaredSchedules;
  readonly #ledger: TriggerLedger = memoryLedger();
  /** Dispatches a job through the App (`task.dispatch`); see `dispatch.ts`. */
  readonly dispatchJob: AppDispatch;
  readonly #listeners = new Set<(event: TaskEvent) => void>();
  #unsubscribe: Promise<() => Promise<void>> | null = null;

  /** Reads and steers `app` through its API. */
  constructor(app: TaskoraAppLike) {
    this.#app = app;
    this.dispatchJob = appDispatch(app, this.#ledger);
    this.#adapter = app.adapter as unknown as AdapterApi;
    this.#declared = new DeclaredSchedules(app);
    // No change feed: the boards over the App's public API read it directly, as they always did.
    const boardStore = appBoardStores.get(app) ?? new MemoryBoardStore({ feed: false });
    appBoardStores.set(app, boardStore);
    pairStore(this, boardStore);
  }

  #tasks(): string[] {
    return [...this.#app.getRegisteredTasks()].map((t) => t.name).sort();
  }

  #decode(task: string, id: string, raw: RawJob): JobRecord {
    const fields = { ...raw.fields };
    if (raw.data !== null) fields.data = raw.data;
    if (raw.result !== null) fields.result = raw.result;
    const record = decodeJob(task, id, fields);
    const serializer = (this.#app as { serializer?: { deserialize(s: string): unknown } })
      .serializer;
    if (serializer) {
      record.data = raw.data ? serializer.deserialize(raw.data) : null;
      record.result = raw.result ? serializer.deserialize(raw.result) : null;
    }
    return record;
  }

  /**
   * The task holding `jobId`, asked of every registered task. taskora's
   * memory adapter keeps one job store for all tasks and answers the state
   * whatever task it is asked for: when more than one task answers, the one
   * whose list of that state holds the id is the job's (read again once
   * should the job have moved on meanwhile).
   */
  async #taskOf(jobId: string): Promise<string | null> {
    const tasks = this.#tasks();
    for (let round = 0; round < 2; round++) {
      const states = await Promise.all(tasks.map((t) => this.#adapter.getState(t, jobId)));
      const answering = tasks.filter((_, i) => states[i] !== null);
      if (answering.length <= 1) return answering[0] ?? null;
      const state = states.find((s) => s !== null)!;
      for (const task of answering) {
        if (await this.#listHolds(task, state, jobId)) return task;
      }
    }
    return null;
  }

  /** Whether `task`'s list of the job state `state` holds `jobId`, read a page at a time. */
  async #listHolds(task: string, state: string, jobId: string): Promise<boolean> {
    const listed = adapterState(state);
    if (listed === null) return false;
    for (let offset = 0; offset < SCAN_LIMIT; offset += LOOKUP_PAGE) {
      const page = await this.#adapter.listJobDetails(task, listed, offset, LOOKUP_PAGE);
      if (page.some(({ id }) => id === jobId)) return true;
      if (page.length < LOOKUP_PAGE) return false;
    }
    return false;
  }

  async #delayedSplit(task: string): Promise<{ delayed: JobRecord[]; retrying: JobRecord[] }> {
    const all = (await this.#adapter.listJobDetails(task, "delayed", 0, SCAN_LIMIT))
      .map(({ id, details }) => this.#decode(task, id, details));
    return {
      delayed: all.filter((job) => job.state !== "retrying"),
      retrying: all.filter((job) => job.state === "retrying"),
    };
  }

  /** The App's registered tasks, sorted. */
  listTasks(): Promise<string[]> {
    return Promise.resolve(this.#tasks());
  }

  /** The same: an App's tasks are known, not discovered. */
  refreshTasks(): Promise<string[]> {
    return this.listTasks();
  }

  /** Counts per state (delayed and retrying told apart by each delayed job's state). */
  async getStats(tasks: string[]): Promise<Map<string, QueueStats>> {
    const known = new Set(this.#tasks());
    const entries = await Promise.all(
      tasks.filter((t) => known.has(t)).map(async (task) => {
        const [stats, split] = await Promise.all([
          this.#adapter.getQueueStats(task),
          this.#delayedSplit(task),
        ]);
        const counts: QueueStats = {
          ...stats,
          delayed: split.delayed.length,
          retrying: split.retrying.length,
        };
        return [task, counts] as const;
      }),
    );
    return new Map(entries);
  }

  /** The waiting jobs at both ends of the adapter's list, {@link OLDEST_WAITING_SCAN} each. */
  async #waitingEnds(task: string): Promise<{ id: string; details: RawJob }[]> {
    const scan = OLDEST_WAITING_SCAN;
    const { waiting } = await this.#adapter.getQueueStats(task);
    if (waiting <= 2 * scan) {
      return await this.#adapter.listJobDetails(task, "waiting", 0, 2 * scan);
    }
    const [first, last] = await Promise.all([
      this.#adapter.listJobDetails(task, "waiting", 0, scan),
      this.#adapter.listJobDetails(task, "waiting", waiting - scan, scan),
    ]);
    return [...first, ...last];
  }

  /** The split is read whole on every {@link getStats} (the store is in-process): exact now. */
  retryingAsOf(tasks: string[]): Map<string, number | null> {
    const now = Date.now();
    return new Map(tasks.map((task) => [task, now]));
  }

  /**
   * Counts and heads per task, read one after the other (see `snapshots.ts`);
   * stalled jobs are not known: taskora's API shows no job lock.
   */
  getQueueSnapshots(tasks: string[]): Promise<Map<string, QueueSnapshot>> {
    return snapshotsOf(this, tasks);
  }

  /**
   * The job waiting longest (of the {@link OLDEST_WAITING_SCAN} at each end
   * of what the adapter lists, the prioritized jobs first, as the Redis
   * source reads each queue's ends) and the job active longest; the next due
   * delayed job is not exposed by the API (null).
   */
  async getQueueHeads(tasks: string[]): Promise<Map<string, QueueHeads>> {
    const known = new Set(this.#tasks());
    const entries = await Promise.all(tasks.map(async (task) => {
      const none: QueueHeads = { oldestWaiting: null, oldestActive: null, nextDue: null };
      if (!known.has(task)) return [task, none] as const;
      const [waiting, active] = await Promise.all([
        this.#waitingEnds(task),
        this.#adapter.listJobDetails(task, "active", 0, SCAN_LIMIT),
      ]);
      const next = waiting.map(({ id, details }) => {
        const job = this.#decode(task, id, details);
        const delay = Number(details.fields.delay) || 0;
        return { id, since: queuedSince({ ...job, delay }) };
      }).sort((a, b) => a.since - b.since)[0];
      const oldest = active
        .map(({ id, details }) => this.#decode(task, id, details))
        .filter((job) => job.processedAt !== null)
        .sort((a, b) => a.processedAt! - b.processedAt!)[0];
      const heads: QueueHeads = {
        oldestWaiting: next ?? null,
        oldestActive: oldest ? { id: oldest.id, since: oldest.processedAt! } : null,
        nextDue: null,
      };
      return [task, heads] as const;
    }));
    return new Map(entries);
  }

  /** The newest `limit` completed and failed jobs the adapter lists (finished at or after `since`). */
  async getFinishedTimings(
    task: string,
    limit: number,
    since = -Infinity,
  ): Promise<FinishedTiming[]> {
    const lists = await Promise.all(
      (["completed", "failed"] as const).map((state) =>
        this.#adapter.listJobDetails(task, state, 0, limit)
      ),
    );
    return lists.flat()
      .map(({ id, details }) => ({
        job: this.#decode(task, id, details),
        delay: Number(details.fields.delay) || 0,
      }))
      .filter(({ job }) => job.finishedAt !== null && job.finishedAt >= since)
      .map(({ job, delay }) => ({
        id: job.id,
        createdAt: job.createdAt,
        delay,
        processedAt: job.processedAt,
        finishedAt: job.finishedAt!,
      }))
      .sort((a, b) => b.finishedAt - a.finishedAt)
      .slice(0, limit);
  }

  /** What the adapter reports for the task. */
  async getTaskStorage(task: string): Promise<TaskStorage> {
    const { keyCount, memoryBytes } = await this.#adapter.getTaskKeyStats(task);
    return { keyCount, memoryBytes };
  }

  /** A page of a task's jobs in one state. */
  async listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage> {
    if (state === "delayed" || state === "retrying") {
      const jobs = (await this.#delayedSplit(task))[state];
      return { jobs: jobs.slice(offset, offset + limit), total: jobs.length };
    }
    const [stats, page] = await Promise.all([
      this.#adapter.getQueueStats(task),
      this.#adapter.listJobDetails(task, state, offset, limit),
    ]);
    return {
      jobs: page.map(({ id, details }) => this.#decode(task, id, details)),
      total: stats[state],
    };
  }

  async #raw(jobId: string): Promise<{ task: string; raw: RawJob } | null> {
    const task = await this.#taskOf(jobId);
    if (task === null) return null;
    const raw = await this.#adapter.getJobDetails(task, jobId);
    return raw ? { task, raw } : null;
  }

  /** A job by id, with its newest log entries. */
  async getJob(jobId: string): Promise<JobDetail | null> {
    const found = await this.#raw(jobId);
    if (!found) return null;
    const logs = decodeLogs(found.raw.logs);
    return {
      ...this.#decode(found.task, jobId, found.raw),
      logs: logs.slice(-JOB_DETAIL_LOGS),
      logCount: logs.length,
    };
  }

  /** A page of a job's log, oldest first. */
  async getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null> {
    const found = await this.#raw(jobId);
    if (!found) return null;
    const logs = decodeLogs(found.raw.logs);
    return { logs: logs.slice(offset, offset + limit), total: logs.length };
  }

  /** The API has no search by the start of an id: nothing is found (whole ids work). */
  findJobsByIdPrefix(): Promise<JobMatch[]> {
    return Promise.resolve([]);
  }

  /** Versions of the jobs yet to run (retrying jobs counted with delayed ones, as taskora does). */
  async getVersionDistribution(task: string): Promise<VersionDistribution> {
    const dist = await this.#adapter.getVersionDistribution(task);
    const queue: VersionCounts = {};
    for (const bucket of [dist.waiting, dist.active]) {
      for (const [v, n] of Object.entries(bucket)) queue[v] = (queue[v] ?? 0) + n;
    }
    return {
      queue,
      delayed: { ...dist.delayed },
      retrying: {},
      latestVersion: findTask(this.#app, task)?.version ?? null,
    };
  }

  /** The App's schedules, with the state of each one's last job. */
  async listSchedules(): Promise<ScheduleRecord[]> {
    const list = await this.#app.schedules.list();
    const records = await Promise.all(list.map(async (info): Promise<ScheduleRecord> => {
      const { lastRun: _r, lastJobId: _j, ...config } = info.config as Record<string, unknown>;
      const state = info.lastJobId
        ? await this.#adapter.getState(info.config.task, info.lastJobId)
        : null;
      return {
        name: info.name,
        config: config as unknown as ScheduleRecord["config"],
        nextRun: info.nextRun,
        lastRun: info.lastRun,
        lastJobId: info.lastJobId,
        lastRunStatus: state ? decodeJobState(state) : null,
        paused: info.paused,
        declaredInCode: this.#declared.has(info.name),
      };
    }));
    return records.sort((a, b) => a.name.localeCompare(b.name));
  }

  async #schedule(name: string): Promise<ScheduleRecord> {
    const record = (await this.listSchedules()).find((s) => s.name === name);
    if (!record) throw scheduleNotFound(name);
    return record;
  }

  /** Runs a ScheduleManager call, its refusals in the catalogue's words. */
  async #steer(name: string, change: () => Promise<void>): Promise<ScheduleRecord> {
    await this.#schedule(name);
    try {
      await change();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new BoardError("INVALID_STATE", `taskora refused: ${message}`, { cause: error });
    }
    return await this.#schedule(name);
  }

  /** Workflows, newest first (the adapter answers them all; paged here). */
  async listWorkflows(offset: number, limit: number, state?: WorkflowState): Promise<WorkflowPage> {
    const all = await this.#adapter.listWorkflows(
      state,
      0,
      SCAN_LIMIT,
    ) as WorkflowPage["workflows"];
    return { workflows: all.slice(offset, offset + limit), total: all.length };
  }

  /** A workflow by id, or null. */
  async getWorkflow(id: string): Promise<WorkflowDetail | null> {
    const detail = await this.#adapter.getWorkflowDetail(id);
    if (!detail) return null;
    const hash: Record<string, string> = {
      state: detail.state,
      graph: JSON.stringify(detail.graph),
      createdAt: String(detail.createdAt),
    };
    if (detail.result !== null) hash.result = detail.result;
    if (detail.error !== null) hash.error = detail.error;
    for (const node of detail.nodes) {
      hash[`n:${node.index}:state`] = node.state;
      if (node.result !== null) hash[`n:${node.index}:result`] = node.result;
      if (node.error !== null) hash[`n:${node.index}:error`] = node.error;
    }
    const workflow = decodeWorkflow(id, hash);
    if (!workflow) return null;
    const states = await Promise.all(
      workflow.nodes.map((n) => this.#adapter.getState(n.taskName, n.jobId)),
    );
    workflow.nodes.forEach((node, i) => {
      node.jobState = states[i] ? decodeJobState(states[i]!) : null;
    });
    return explainUnstarted(workflow);
  }

  async #deadLetterEntries(task?: string): Promise<DeadLetterEntry[]> {
    const tasks = task !== undefined ? [task] : this.#tasks();
    const pages = await Promise.all(
      tasks.map(async (name) =>
        (await this.#adapter.listJobDetails(name, "failed", 0, SCAN_LIMIT)).map((
          { id, details },
        ) => ({
          id,
          task: name,
          error: details.fields.error || null,
          failedAt: Number(details.fields.finishedOn) || 0,
        }))
      ),
    );
    return pages.flat().sort((a, b) => b.failedAt - a.failedAt);
  }

  /** Failed jobs, most recently failed first. */
  async listDeadLetters(
    offset: number,
    limit: number,
    task?: string,
    pattern?: string,
  ): Promise<JobPage> {
    let entries = await this.#deadLetterEntries(task);
    if (pattern !== undefined) entries = inGroup(entries, pattern);
    const page = entries.slice(offset, offset + limit);
    const jobs = await Promise.all(page.map(async (e) => {
      const raw = await this.#adapter.getJobDetails(e.task, e.id);
      return raw ? this.#decode(e.task, e.id, raw) : null;
    }));
    return { jobs: jobs.filter((j) => j !== null), total: entries.length };
  }

  /** Failed jobs grouped by error. */
  async groupDeadLetters(task?: string): Promise<DeadLetterGroup[]> {
    return groupDeadLetters(await this.#deadLetterEntries(task));
  }

  /** Finished-job counts per bucket, from the adapter. */
  async getThroughput(query: ThroughputQuery = {}): Promise<ThroughputBucket[]> {
    return await this.#adapter.getThroughput(
      query.task ?? null,
      query.bucketMs ?? 60_000,
      query.count ?? 1440,
    );
  }

  /** {@link getThroughput} of each task. */
  async getThroughputByTask(
    tasks: string[],
    query: Omit<ThroughputQuery, "task"> = {},
  ): Promise<Map<string, ThroughputBucket[]>> {
    const series = await Promise.all(tasks.map((task) => this.getThroughput({ ...query, task })));
    return new Map(tasks.map((task, i) => [task, series[i]]));
  }

  /** What the adapter reports about its store. */
  async getStoreInfo(): Promise<StoreInfo> {
    const info = await this.#adapter.getServerInfo();
    return {
      version: info.version,
      usedMemory: info.usedMemory,
      usedMemoryBytes: info.usedMemoryBytes ?? 0,
      uptime: info.uptime,
      connected: info.connected,
    };
  }

  /** Retries a failed job (`deadLetters.retry`); a cancelled one is refused (the API cannot). */
  async retryJob(
    jobId: string,
    from: readonly RetryableState[] = RETRYABLE_STATES,
  ): Promise<JobActionResult> {
    const task = await this.#taskOf(jobId);
    if (task === null) throw jobNotFound(jobId);
    const state = await this.#adapter.getState(task, jobId) ?? undefined;
    if (state !== "failed" || !from.includes("failed")) {
      throw state === "cancelled" && from.includes("cancelled")
        ? new BoardError(
          "INVALID_STATE",
          `Job ${jobId} is cancelled; through the App's API only failed jobs can be retried`,
        )
        : cannotRetry(jobId, state, from);
    }
    if (!await this.#app.deadLetters.retry(task, jobId)) throw cannotRetry(jobId, "gone", from);
    return { id: jobId, task, from: "failed", to: "waiting" };
  }

  /**
   * Refused: the App's API re-dispatches a job as it is (`deadLetters.retry`)
   * and has no way to replace its data.
   */
  async retryJobWithData(jobId: string): Promise<JobActionResult> {
    if (await this.#taskOf(jobId) === null) throw jobNotFound(jobId);
    throw new BoardError(
      "INVALID_STATE",
      `Job ${jobId} was not retried: through the App's API a job's data cannot be replaced; ` +
        "retry it as it is, or run it again (a new job with the same data)",
    );
  }

  /** Runs a job again through the App (`task.dispatch`); see `trigger.ts`. */
  async rerunJob(jobId: string): Promise<RerunResult> {
    const job = await this.getJob(jobId);
    if (!job) throw jobNotFound(jobId);
    return await rerunThroughApp(this.#app, job);
  }

  /** Cancels a job through the adapter (an active one is flagged for its worker). */
  async cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    const task = await this.#taskOf(jobId);
    if (task === null) throw jobNotFound(jobId);
    const from = decodeJobState(await this.#adapter.getState(task, jobId) ?? undefined);
    const outcome = await this.#adapter.cancel(task, jobId, reason);
    if (outcome === "not_cancellable") throw cannotCancel(jobId, from);
    return { id: jobId, task, from, to: outcome === "flagged" ? "cancelling" : "cancelled" };
  }

  /** Every failed job back to waiting (`deadLetters.retryAll`). */
  async retryAllFailed(task?: string): Promise<{ retried: number }> {
    return { retried: await this.#app.deadLetters.retryAll(task ? { task } : undefined) };
  }

  /** The failed jobs of one error group back to waiting, one by one. */
  async retryDeadLetterGroup(pattern: string, task?: string): Promise<{ retried: number }> {
    let retried = 0;
    for (const entry of inGroup(await this.#deadLetterEntries(task), pattern)) {
      if (await this.#app.deadLetters.retry(entry.task, entry.id)) retried++;
    }
    return { retried };
  }

  /** Removes finished jobs older than `olderThanMs` (`adapter.cleanJobs`, in batches). */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
  ): Promise<{ removed: number }> {
    const before = Date.now() - olderThanMs;
    let removed = 0;
    for (;;) {
      const n = await this.#adapter.cleanJobs(task, FINISHED_ADAPTER[state], before, CLEAN_BATCH);
      removed += n;
      if (n < CLEAN_BATCH) return { removed };
    }
  }

  /** How many jobs a clean would remove now. */
  async countCleanable(task: string, state: FinishedState, olderThanMs: number): Promise<number> {
    const before = Date.now() - olderThanMs;
    const jobs = await this.#adapter.listJobDetails(task, FINISHED_ADAPTER[state], 0, SCAN_LIMIT);
    return jobs.filter(({ details }) => (Number(details.fields.finishedOn) || 0) <= before).length;
  }

  /** `schedules.pause`. */
  pauseSchedule(name: string): Promise<ScheduleRecord> {
    return this.#steer(name, () => this.#app.schedules.pause(name));
  }

  /** `schedules.resume` (needs the App's scheduler running). */
  resumeSchedule(name: string): Promise<ScheduleRecord> {
    return this.#steer(name, () => this.#app.schedules.resume(name));
  }

  /** Dispatches one run through the App; see `trigger.ts`. */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    const record = await this.#schedule(name);
    return await triggerThroughApp(
      this.#app,
      this.#ledger,
      { name, task: record.config.task },
      idempotencyKey,
    );
  }

  /**
   * `schedules.update` (needs the App's scheduler running). taskora's update
   * writes the next run whatever the schedule's state, so a paused one is
   * paused again at once: it stays paused, as the Redis source keeps it.
   * Its next run is computed from now, never due at once, so no run starts
   * in between.
   */
  async updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    const { maskedKeys = [], ...rest } = patch;
    const updates: Record<string, unknown> = rest;
    // taskora's update takes no null: an absent time zone is stored as none.
    if (patch.timezone === null) updates.timezone = undefined;
    const { paused, config } = await this.#schedule(name);
    if (patch.data !== undefined && maskedKeys.length > 0) {
      updates.data = keepMasked(config.data, patch.data, maskedKeys, "data");
    }
    return await this.#steer(name, async () => {
      await this.#app.schedules.update(name, updates);
      if (paused) await this.#app.schedules.pause(name);
    });
  }

  /** `schedules.remove`. */
  async removeSchedule(name: string): Promise<void> {
    await this.#schedule(name);
    await this.#app.schedules.remove(name);
  }

  /** Cancels a running workflow through the adapter. */
  async cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult> {
    const before = await this.getWorkflow(id);
    if (!before) throw workflowNotFound(id);
    if (before.state !== "running") {
      throw new BoardError(
        "INVALID_STATE",
        `Workflow ${id} is ${before.state}; only running workflows can be cancelled`,
      );
    }
    await this.#adapter.cancelWorkflow(id, reason);
    const after = await this.getWorkflow(id);
    const changed = (after?.nodes ?? []).filter((node, i) =>
      node.jobState !== before.nodes[i].jobState
    );
    return {
      cancelled: changed.filter((n) => n.jobState === "cancelled").length,
      signalled: before.nodes.filter((n) => n.jobState === "active").length,
    };
  }

  /** Every job event of the App's tasks, from one adapter subscription shared by all listeners. */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    this.#listeners.add(listener);
    this.#unsubscribe ??= this.#adapter.subscribe(this.#tasks(), (raw) => {
      const event: TaskEvent = {
        task: raw.task,
        event: raw.event,
        jobId: raw.jobId,
        fields: decodeEventFields(raw.fields),
        at: Date.now(),
      };
      for (const l of this.#listeners) l(event);
    });
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  #stop(): void {
    const pending = this.#unsubscribe;
    this.#unsubscribe = null;
    pending?.then((off) => off()).catch(() => {});
  }

  /** The App's definition of a task. */
  getTaskDefinition(task: string): Promise<TaskDefinition | null> {
    return Promise.resolve(appTaskDefinition(this.#app, this.#declared, task));
  }

  /** Not known: taskora's API shows no job lock and no stalled set. */
  getTaskLiveness(): Promise<TaskLiveness> {
    return Promise.resolve({
      known: false,
      reason: "taskora's App API shows no job lock and no stalled set; the board reads them " +
        "from Redis, with the App's Redis adapter or a redis:// URL",
    });
  }

  /** Not known: taskora's API does not say which scheduler leads. */
  getSchedulerLeadership(): Promise<SchedulerLeadership> {
    return Promise.resolve({
      known: false,
      reason: "taskora's App API does not say which scheduler holds the leader lock; the board " +
        "reads it from Redis, with the App's Redis adapter or a redis:// URL",
    });
  }

  /** Stops the event subscription; the App is the host's to close. */
  close(): Promise<void> {
    this.#listeners.clear();
    this.#stop();
    return Promise.resolve();
  }
}
