/**
 * The Redis TaskSource: taskora's wire format 6, read straight from Redis.
 *
 * @example
 * ```ts ignore
 * import { createRedisSource } from "./mod.ts";
 *
 * const source = createRedisSource({ url: "redis://127.0.0.1:6379" });
 * const tasks = await source.listTasks();
 * console.log(await source.getStats(tasks));
 * await source.close();
 * ```
 *
 * @module
 */

import { IncompatibleStoreError } from "../../errors.ts";
import type {
  BacklogAnswers,
  BacklogQuery,
  BeforeBatch,
  BulkAction,
  BulkIdSelector,
  BulkStateSelector,
  BulkStep,
  BulkStepResult,
  CleanOptions,
  DeadLetterGroup,
  EventBatch,
  FailedScope,
  FinishedState,
  FinishedTiming,
  JobActionResult,
  JobDetail,
  JobFilter,
  JobMatch,
  JobPage,
  JobRef,
  JobState,
  ListTasksOptions,
  LockAnswers,
  LockQuery,
  LogPage,
  QueueSnapshot,
  QueueStats,
  RerunResult,
  RetryOptions,
  SchedulePatch,
  ScheduleRecord,
  SearchPosition,
  SearchSlice,
  StoreInfo,
  StreamAnswers,
  StreamQuery,
  TaskEvent,
  TaskFilter,
  TaskSource,
  TaskStorage,
  ThroughputBucket,
  ThroughputQuery,
  TriggerResult,
  VersionDistribution,
  WorkflowCancelResult,
  WorkflowDetail,
  WorkflowPage,
  WorkflowState,
} from "../types.ts";
import { RETRYABLE_STATES } from "../types.ts";
import { cancelJob } from "./cancel.ts";
import { cleanJobs, cleanRange, countCleanable } from "./clean.ts";
import { bulkStep, countNamed } from "./bulk.ts";
import { type RedisClientLike, RedisConnection } from "./client.ts";
import type { RedisClusterConfig, RedisSentinelConfig } from "./topology.ts";
import {
  DeadLetterGroups,
  listDeadLetters,
  listGroupDeadLetters,
  readDeadLetterEntries,
} from "./dead_letters.ts";
import { DEFAULT_SCANS_PER_SECOND, TaskDiscovery } from "./discovery.ts";
import { RedisEventReader } from "./event_reader.ts";
import { getStoreInfo } from "./info.ts";
import { countDelayedState, getJob, getJobLogs, listJobs } from "./jobs.ts";
import { searchJobs } from "./search.ts";
import { readSchedulerLeadership, readTaskLiveness } from "./liveness.ts";
import { getAttemptHistory } from "./attempts.ts";
import { readJobHolds } from "./diagnosis.ts";
import type { JobHolds } from "../../contract/diagnosis.ts";
import { locateJob } from "./locate.ts";
import { checkWireVersion } from "./meta.ts";
import { MigrationWatch } from "./migration_watch.ts";
import { getQueueSnapshots } from "./queue_snapshot.ts";
import { readActiveLocks, readTaskActivity } from "./activity.ts";
import { countDueAfter } from "./backlog.ts";
import { readBacklogKinds } from "./backlog_kinds.ts";
import { scanMechanics } from "./mechanics.ts";
import type { MechanicsStep } from "../../contract/mechanics.ts";
import { scanDrain } from "./drain_scan.ts";
import { getFinishedTimings } from "./finished_timings.ts";
import { RecentJobIds } from "./recent_job_ids.ts";
import { withStates } from "./job_states.ts";
import { acceptedJobs } from "../accepted_jobs.ts";
import { rerunJob } from "./rerun.ts";
import { retryAllFailed, retryFailedJobs, retryJob } from "./retry.ts";
import { inGroup } from "../dead_letters.ts";
import {
  pauseSchedule,
  removeSchedule,
  resumeSchedule,
  triggerSchedule,
  updateSchedule,
} from "./schedule_actions.ts";
import { listSchedules } from "./schedules.ts";
import { pausingOf } from "../schedule_patch.ts";
import { FinishedStates, readJobStates } from "./job_state_reads.ts";
import { taskKeys } from "../wire/keys.ts";
import { Pacer } from "./pacer.ts";
import { RetryingReconciler } from "./retrying_reconcile.ts";
import { RetryingSplit, type SplitReading } from "./retrying_split.ts";
import { getStats } from "./stats.ts";
import { getTaskStorage } from "./storage.ts";
import { getTaskReruns } from "./reruns.ts";
import { ClosedMinutes, getThroughput, getThroughputByTask } from "./throughput.ts";
import { getVersionDistribution } from "./versions.ts";
import { cancelWorkflow } from "./workflow_cancel.ts";
import { Watch } from "./watch.ts";
import { readingUnwatched } from "../unwatched.ts";
import { getWorkflow, listWorkflows, WorkflowIndex } from "./workflows.ts";
import { jobNotFound } from "../refusals.ts";
import { checkedSource } from "../checked.ts";
import { RedisBoardStore } from "../../store/redis/mod.ts";
import { pairStore } from "../../store/pairing.ts";
import { readRecordedFields } from "./history_reads.ts";
import type { JobFields, JobRef as HistoryJobRef } from "../../history/recorder.ts";
import { epochClock, systemTimers, type Timers } from "../../timers.ts";
import { Leadership, leaseOf } from "../../leadership.ts";
import {
  decodeRetrying,
  decodeTaskList,
  encodeRetrying,
  encodeTaskList,
  SHARED_RETRYING,
  SHARED_TASKS,
} from "./background_share.ts";

export type { RedisClientLike } from "./client.ts";
export { RedisConnection } from "./client.ts";
export type { RedisClusterConfig, RedisNodeAddress, RedisSentinelConfig } from "./topology.ts";

/**
 * Options of {@link createRedisSource}. Where Redis is: at most one of
 * `url`, `client`, `cluster` and `sentinel`.
 */
export interface RedisSourceOptions {
  /** Redis URL (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A node-redis v5 client of yours: connected if it is not yet, never closed by the source. */
  client?: RedisClientLike;
  /**
   * A Redis Cluster: some of its nodes (node-redis `createCluster` finds the
   * rest). Every task's keys share one slot (`{task}`), so each command
   * goes to one master; SCAN runs on every master.
   */
  cluster?: RedisClusterConfig;
  /** A Sentinel set: the master's name and some sentinels (node-redis `createSentinel`). */
  sentinel?: RedisSentinelConfig;
  /** taskora's key prefix: keys become `taskora:<prefix>:...`. */
  prefix?: string;
  /** The tasks to show; when given, no SCAN is made to discover them. */
  tasks?: string[];
  /** Tasks known without a SCAN (a taskora App's registered ones), always listed. */
  knownTasks?: () => readonly string[];
  /**
   * Shortest pause between two background rediscoveries of tasks and
   * workflows, ms (default 10,000); the pause grows with the keyspace (see
   * `TaskDiscovery`).
   */
  discoveryIntervalMs?: number;
  /** SCAN calls per second the background walks of the keyspace may make together (default 250). */
  scansPerSecond?: number;
  /**
   * Redis commands per second the reconcile of the retrying split may spend,
   * the commands its scripts run included: one cap for all of it (default:
   * 40 for a task's first count, 20 for the rechecks); see `retrying_reconcile.ts`.
   */
  reconcileCommandsPerSecond?: number;
  /** How long a request keeps background work going, ms (default 60,000); see `watch.ts`. */
  idleAfterMs?: number;
  /** Longest wait for Redis before a call fails with STORE_UNAVAILABLE, ms (default 2000). */
  commandTimeoutMs?: number;
  /**
   * The lease period of the leader among the boards on this keyspace, ms
   * (default 10,000): only the leader runs discovery and the reconcile, the
   * others read its results; a leader gone is replaced within one period.
   */
  leaseMs?: number;
}

/** The lease of the source's background work (discovery, the reconcile). */
const BACKGROUND_LEASE = "background";
/** What the leader shares lives this many lease periods unless it shares it again. */
const SHARED_LEASES = 3;

/** How long a failed wire-version check is trusted before Redis is asked again, ms. */
const RECHECK_INCOMPATIBLE_MS = 10_000;

/**
 * A {@link TaskSource} over a taskora keyspace in Redis. Every method
 * rejects with `StoreUnavailableError` within `commandTimeoutMs` while Redis
 * is unreachable, and with `IncompatibleStoreError` when the keyspace's wire
 * format is one this board does not read.
 */
export class RedisTaskSource implements TaskSource {
  /** The connection every read goes through. */
  readonly connection: RedisConnection;
  /** The configured key prefix, if any. */
  readonly prefix?: string;
  readonly #discovery: TaskDiscovery;
  readonly #workflows: WorkflowIndex;
  readonly #deadLetters: DeadLetterGroups;
  readonly #closedMinutes = new ClosedMinutes();
  /** Whether anyone looks at the board: background work runs only then. */
  readonly #watch: Watch;
  /** Whether anyone looks at counts (stats, the event stream): the reconcile runs only then. */
  readonly #countsWatch: Watch;
  /** Which delayed jobs are retrying, kept from events and reconciles. */
  readonly #split = new RetryingSplit();
  readonly #reconciler: RetryingReconciler;
  /** Live subscribers, and how to stop the split following events when the last leaves. */
  #subscribers = 0;
  #stopFollowing: (() => void) | null = null;
  /** Job ids this source served lately: what a prefix search looks at. */
  readonly #recentIds = new RecentJobIds();
  #wireCheck: Promise<void> | null = null;
  #wire: { ok: true } | { ok: false; error: IncompatibleStoreError; at: number } | null = null;
  readonly #offReconnect: () => void;
  readonly #migration: MigrationWatch;
  /** Whether this source leads the boards on the keyspace: its background work runs only then. */
  readonly #leadership: Leadership;
  readonly #offTurn: () => void;
  /** The leader's retrying figures as last read while this source followed, or null. */
  #sharedRetrying: Map<string, SplitReading> | null = null;
  /** The live event reader, made on the first {@link subscribe}. */
  #events: RedisEventReader | null = null;
  /** The board's own state beside this keyspace, through the same connection. */
  readonly boardStore: RedisBoardStore;
  readonly #eventRefreshMs: number;
  /** The finished states of schedules' runs, trusted a minute. */
  readonly #finishedStates: FinishedStates;

  /**
   * Creates the source; see {@link createRedisSource}. Its background work
   * (discovery, the workflow index, the reconcile, the idle watch) runs on
   * `timers`: tests pass fake ones.
   */
  constructor(options: RedisSourceOptions = {}, timers: Timers = systemTimers) {
    // Checked before anything opens a connection, so a bad rate leaves nothing behind.
    for (const name of ["scansPerSecond", "reconcileCommandsPerSecond", "leaseMs"] as const) {
      const rate = options[name];
      if (rate !== undefined && !(Number.isFinite(rate) && rate > 0)) {
        throw new TypeError(`queue-board: ${name} must be a positive number (got ${rate})`);
      }
    }
    this.prefix = options.prefix;
    // On the epoch's clock: when a state was read is said in GET /schedules.
    this.#finishedStates = new FinishedStates(epochClock(timers));
    this.#eventRefreshMs = Math.min(options.discoveryIntervalMs ?? 5000, 5000);
    this.connection = new RedisConnection({
      url: options.url,
      client: options.client,
      cluster: options.cluster,
      sentinel: options.sentinel,
      commandTimeoutMs: options.commandTimeoutMs,
    });
    // The board's own keys: no wire check, and a sweep does not count as someone watching.
    this.boardStore = new RedisBoardStore(this.connection, {
      prefix: options.prefix,
      now: () => timers.now(),
    });
    pairStore(this, this.boardStore);
    // A reconnection may be to another server: check its wire version again.
    this.#offReconnect = this.connection.onReconnect(() => this.#wire = null);
    // A migrator taking or freeing its lock may change the wire version too.
    this.#migration = new MigrationWatch(this.connection, options.prefix, () => this.#wire = null);
    this.#watch = new Watch(options.idleAfterMs, () => timers.now());
    this.#countsWatch = new Watch(options.idleAfterMs, () => timers.now());
    // Competing only while watched: an idle source sends nothing, not even a renewal.
    this.#leadership = new Leadership(leaseOf(this.boardStore, BACKGROUND_LEASE), {
      ttlMs: options.leaseMs,
      keepMs: options.idleAfterMs,
      timers,
    });
    this.#offTurn = this.#leadership.onTurn((leads) => void this.#onTurn(leads));
    const leads = () => this.#leadership.leads();
    const scans = new Pacer(options.scansPerSecond ?? DEFAULT_SCANS_PER_SECOND);
    this.#discovery = new TaskDiscovery(this.connection, {
      prefix: options.prefix,
      tasks: options.tasks,
      intervalMs: options.discoveryIntervalMs,
      known: options.knownTasks,
      watch: this.#watch,
      pacer: scans,
      timers,
      shared: {
        // Never starts competing: a pass may run in a request, and a lease write queued before
        // its reads would hold them while Redis pauses writes (a failover). The reconcile's
        // background passes start it.
        leads: () => this.#leadership.isLeading,
        read: async () => decodeTaskList(await this.boardStore.readSharedResult(SHARED_TASKS)),
      },
    });
    this.#workflows = new WorkflowIndex(this.connection, {
      prefix: options.prefix,
      intervalMs: options.discoveryIntervalMs,
      watch: this.#watch,
      pacer: scans,
      timers,
    });
    this.#reconciler = new RetryingReconciler(
      this.connection,
      this.#split,
      () => this.#discovery.list(),
      this.#countsWatch,
      {
        prefix: options.prefix,
        commandsPerSecond: options.reconcileCommandsPerSecond,
        firstCommandsPerSecond: options.reconcileCommandsPerSecond,
        timers,
        leads,
      },
    );
    this.#deadLetters = new DeadLetterGroups(async (task) =>
      readDeadLetterEntries(
        this.connection,
        task ? [task] : await this.#discovery.list(),
        this.prefix,
      )
    );
  }

  /**
   * Whether this source leads the boards on its keyspace now: only the
   * leader runs discovery and the reconcile; the others serve its results.
   */
  get leading(): boolean {
    return this.#leadership.isLeading;
  }

  /** Resolves when Redis is reachable and its keyspace is one we read. */
  async #ready(): Promise<void> {
    if (this.#lookedAt(this.#watch)) {
      // Looked at: keep competing (the background passes that ask may be minutes apart).
      this.#leadership.keep();
    }
    await this.connection.ready();
    const verdict = this.#wire;
    if (verdict?.ok) return;
    if (verdict && Date.now() - verdict.at < RECHECK_INCOMPATIBLE_MS) throw verdict.error;
    this.#wireCheck ??= checkWireVersion(this.connection, this.prefix)
      .then(
        () => void (this.#wire = { ok: true }),
        (error) => {
          if (!(error instanceof IncompatibleStoreError)) throw error;
          this.#wire = { ok: false, error, at: Date.now() };
        },
      )
      .finally(() => this.#wireCheck = null);
    await this.#wireCheck;
    if (this.#wire && !this.#wire.ok) throw this.#wire.error;
  }

  /**
   * Notes on `watch` that someone looks at the board, unless the read under
   * way is one the board makes of its own accord (see `../unwatched.ts`);
   * says whether it noted it.
   */
  #lookedAt(watch: Watch): boolean {
    if (readingUnwatched()) return false;
    watch.touch();
    return true;
  }

  /** Whether someone looks at the board: a live subscriber, or a request within `idleAfterMs`. */
  get watched(): boolean {
    return this.#watch.watched;
  }

  /** Names of every known task, sorted (cached, refreshed in the background; `fresh`: now). */
  async listTasks(options: ListTasksOptions = {}): Promise<string[]> {
    await this.#ready();
    return options.fresh ? await this.#discovery.refresh() : await this.#discovery.list();
  }

  /**
   * Counts per state of each task: 8 O(1) commands per task (`stats.ts`);
   * the retrying figure is the kept split's, clamped to the delayed set.
   */
  async getStats(tasks: string[]): Promise<Map<string, QueueStats>> {
    await this.#ready();
    this.#lookedAt(this.#countsWatch);
    return await getStats(
      this.connection,
      tasks,
      (task) => this.#retrying(task).retrying,
      this.prefix,
    );
  }

  /**
   * A task's retrying figure: the leader's, as it shared it last, while this
   * source follows; else its own split's, or, until this new leader has
   * counted the task, the figure the last leader shared (with its asOf).
   */
  #retrying(task: string): SplitReading {
    const shared = this.#sharedRetrying?.get(task);
    if (!shared) return this.#split.read(task);
    if (!this.#leadership.isLeading) return shared;
    const own = this.#split.read(task);
    return own.asOf === null ? shared : own;
  }

  /** At each turn of the lease: the leader shares its results, a follower reads them. */
  async #onTurn(leads: boolean): Promise<void> {
    try {
      if (!leads) {
        // Nothing shared (the leader just went away): the last figures stay, with their asOf.
        const shared = decodeRetrying(await this.boardStore.readSharedResult(SHARED_RETRYING));
        this.#sharedRetrying = shared ?? this.#sharedRetrying;
        return;
      }
      const list = this.#discovery.snapshot;
      if (!list) return;
      const ttlMs = SHARED_LEASES * this.#leadership.ttlMs;
      const figures = new Map(list.tasks.map((task) => [task, this.#retrying(task)]));
      await Promise.all([
        this.boardStore.shareResult(SHARED_TASKS, encodeTaskList(list), ttlMs),
        this.boardStore.shareResult(SHARED_RETRYING, encodeRetrying(figures), ttlMs),
      ]);
    } catch {
      // Redis did not answer: the next turn shares or reads again.
    }
  }

  /**
   * Since when each task's retrying figure is exact: now while the events
   * are followed (an SSE client is connected) since its last reconcile,
   * else that reconcile's start; null before the first. See `retrying_split.ts`.
   * On a follower, the leader's figure as it shared it last (its events
   * followed: as of that turn).
   */
  retryingAsOf(tasks: string[]): Map<string, number | null> {
    return new Map(tasks.map((task) => [task, this.#retrying(task).asOf]));
  }

  /** Reconciles the retrying split of every due task now (under its budget); for tests and tools. */
  async reconcileRetrying(): Promise<void> {
    await this.#ready();
    // Whoever asks watches until it is done: a long count is not abandoned as idle halfway.
    const release = this.#countsWatch.hold();
    try {
      await this.#reconciler.run();
    } finally {
      release();
    }
  }

  /** Counts and heads per task, one script call each; see `queue_snapshot.ts`. */
  async getQueueSnapshots(tasks: string[]): Promise<Map<string, QueueSnapshot>> {
    await this.#ready();
    this.#lookedAt(this.#countsWatch);
    return await getQueueSnapshots(
      this.connection,
      tasks,
      (task) => this.#retrying(task).retrying,
      this.prefix,
    );
  }

  /** The times of the task's newest finished jobs; see `finished_timings.ts`. */
  async getFinishedTimings(
    task: string,
    limit: number,
    since?: number,
  ): Promise<FinishedTiming[]> {
    await this.#ready();
    return await getFinishedTimings(this.connection, task, limit, since, this.prefix);
  }

  /** Key count and memory of a task (partly estimated; see `storage.ts`). */
  async getTaskStorage(task: string): Promise<TaskStorage> {
    await this.#ready();
    return await getTaskStorage(this.connection, task, this.prefix);
  }

  /** A page of a task's jobs in one state; see `jobs.ts` for the cost. */
  async listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage> {
    await this.#ready();
    // The page is read; its total is the kept split's, as the task's counts say.
    if (state === "delayed" || state === "retrying") this.#lookedAt(this.#countsWatch);
    const retrying = this.#retrying(task).retrying;
    return this.#served(
      await listJobs(this.connection, task, state, offset, limit, this.prefix, retrying),
    );
  }

  /** One slice of a job search; see `search.ts` for the cost. */
  async searchJobs(
    task: string,
    state: JobState,
    filter: JobFilter,
    position: SearchPosition | null,
    want: number,
  ): Promise<SearchSlice> {
    await this.#ready();
    const slice = await searchJobs(
      this.connection,
      task,
      state,
      filter,
      position,
      want,
      this.prefix,
    );
    // Found jobs are served jobs: their short ids must be findable too. Not with a payload
    // condition: those candidates are what the prefilter saw in unredacted text.
    if (filter.payload === null) this.#recentIds.note(slice.candidates.map((c) => c.job));
    return slice;
  }

  /** A job by id across all tasks, or null. */
  async getJob(jobId: string): Promise<JobDetail | null> {
    await this.#ready();
    const job = await getJob(this.connection, await this.#discovery.list(), jobId, this.prefix);
    if (job) this.#recentIds.note([job]);
    return job;
  }

  /** What the history records of each ending job: one pipeline (see `history_reads.ts`). */
  readJobFields(jobs: readonly HistoryJobRef[], payloads: boolean): Promise<(JobFields | null)[]> {
    return readRecordedFields(this.connection, jobs, payloads, this.prefix);
  }

  /** The jobs' states: one `HGET state` each, a finished one trusted a minute (`job_state_reads.ts`). */
  async getJobStates(jobs: readonly JobRef[]): Promise<(JobState | null)[]> {
    await this.connection.ready();
    const keys = jobs.map(({ id, task }) => `${taskKeys(task, this.prefix).jobPrefix}${id}`);
    return await readJobStates(this.connection, keys, this.#finishedStates);
  }

  /** The task holding the job: one pipelined `TYPE` per task (see `locate.ts`). */
  async findJobTask(jobId: string): Promise<string | null> {
    await this.#ready();
    return await locateJob(
      this.connection,
      await this.#discovery.list(),
      jobId,
      this.prefix,
      "hash",
    );
  }

  /**
   * Jobs served lately whose id starts with `prefix`, matched in memory (see
   * `recent_job_ids.ts` for why not a SCAN), then their states in one
   * pipeline of two commands per job listed (`job_states.ts`).
   */
  async findJobsByIdPrefix(
    prefix: string,
    limit: number,
    accept?: TaskFilter,
  ): Promise<JobMatch[]> {
    const served = this.#recentIds.find(prefix, this.#recentIds.capacity);
    const listed = await acceptedJobs(served, limit, accept);
    await this.#ready();
    return await withStates(this.connection, listed, this.prefix);
  }

  /** Remembers the jobs of a page for {@link findJobsByIdPrefix}, and passes the page on. */
  #served(page: JobPage): JobPage {
    this.#recentIds.note(page.jobs);
    return page;
  }

  /** A page of a job's log, oldest first, or null when no task has the job. */
  async getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null> {
    await this.#ready();
    const tasks = await this.#discovery.list();
    return await getJobLogs(this.connection, tasks, jobId, offset, limit, this.prefix);
  }

  /** Task-version spread of the jobs yet to run. */
  async getVersionDistribution(task: string): Promise<VersionDistribution> {
    await this.#ready();
    return await getVersionDistribution(this.connection, task, this.prefix);
  }

  /** Every schedule, sorted by name. */
  async listSchedules(): Promise<ScheduleRecord[]> {
    await this.#ready();
    const schedules = await listSchedules(this.connection, this.#finishedStates, this.prefix);
    this.#recentIds.note(
      schedules.flatMap((s) => s.lastJobId ? [{ id: s.lastJobId, task: s.config.task }] : []),
    );
    return schedules;
  }

  /** Workflows (only those in `state`, when given), newest first. */
  async listWorkflows(
    offset: number,
    limit: number,
    state?: WorkflowState,
  ): Promise<WorkflowPage> {
    await this.#ready();
    return await listWorkflows(this.connection, this.#workflows, offset, limit, this.prefix, state);
  }

  /** A workflow by id, or null. */
  async getWorkflow(id: string): Promise<WorkflowDetail | null> {
    await this.#ready();
    const workflow = await getWorkflow(this.connection, id, this.prefix);
    this.#recentIds.note(workflow?.nodes.map((n) => ({ id: n.jobId, task: n.taskName })) ?? []);
    return workflow;
  }

  /** Failed jobs (of one error group, with `pattern`), most recently failed first. */
  async listDeadLetters(
    offset: number,
    limit: number,
    task?: string,
    pattern?: string,
  ): Promise<JobPage> {
    await this.#ready();
    if (pattern !== undefined) {
      const members = await this.#deadLetters.members(pattern, task);
      return this.#served(
        await listGroupDeadLetters(this.connection, members, offset, limit, this.prefix),
      );
    }
    const tasks = task !== undefined ? [task] : await this.#discovery.list();
    return this.#served(await listDeadLetters(this.connection, tasks, offset, limit, this.prefix));
  }

  /** Failed jobs grouped by error (cached a few seconds). */
  async groupDeadLetters(task?: string): Promise<DeadLetterGroup[]> {
    await this.#ready();
    return await this.#deadLetters.get(task);
  }

  /** Finished-job counts per bucket, oldest first. */
  async getThroughput(query: ThroughputQuery = {}): Promise<ThroughputBucket[]> {
    await this.#ready();
    const tasks = query.task !== undefined ? [query.task] : await this.#discovery.list();
    return await getThroughput(this.connection, tasks, {
      bucketMs: query.bucketMs,
      count: query.count,
      prefix: this.prefix,
      cache: this.#closedMinutes,
    });
  }

  /** Each task's own finished-job counts per bucket, one pipeline for all; see `throughput.ts`. */
  async getThroughputByTask(
    tasks: string[],
    query: Omit<ThroughputQuery, "task"> = {},
  ): Promise<Map<string, ThroughputBucket[]>> {
    await this.#ready();
    return await getThroughputByTask(this.connection, tasks, {
      bucketMs: query.bucketMs,
      count: query.count,
      prefix: this.prefix,
      cache: this.#closedMinutes,
    });
  }

  /** Version, memory and uptime of Redis. */
  async getStoreInfo(): Promise<StoreInfo> {
    await this.connection.ready();
    return await getStoreInfo(this.connection);
  }

  /**
   * Every event written to any task's stream from now on. All subscribers
   * share one blocking connection (a duplicate of the command client),
   * opened by the first and closed after the last; see `event_reader.ts`.
   */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    const events = this.#eventReader();
    if (this.#subscribers++ === 0) {
      // The split follows the events while (and only while) someone else does.
      const release = this.#watch.hold();
      const releaseCounts = this.#countsWatch.hold();
      this.#split.following(true);
      const off = events.subscribe((event) => this.#split.observe(event));
      this.#stopFollowing = () => {
        off();
        this.#split.following(false);
        releaseCounts();
        release();
      };
    }
    const off = events.subscribe(listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      if (--this.#subscribers === 0) {
        this.#stopFollowing?.();
        this.#stopFollowing = null;
      }
    };
  }

  /**
   * Every task's stream from the given ids, a batch at a time, on a
   * blocking connection of its own (polled on a cluster); see
   * `RedisEventReader.tail`. While it runs, discovery and the retrying
   * reconcile do, as while a browser watches: a new task is read from its
   * first event.
   */
  async tailEvents(
    from: ReadonlyMap<string, string>,
    take: (batch: EventBatch) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    const release = this.#watch.hold();
    const releaseCounts = this.#countsWatch.hold();
    try {
      await this.#eventReader().tail(from, take, signal);
    } finally {
      releaseCounts();
      release();
    }
  }

  /** The live event reader, made on first use. */
  #eventReader(): RedisEventReader {
    // The reader's periodic "refresh" reads the cached list: discovery's own
    // cadence keeps it fresh, so following events adds no SCAN of its own.
    const topology = this.connection.topology;
    this.#events ??= new RedisEventReader({
      createClient: topology.sharded ? null : () => topology.blockingClient()!,
      pipeline: (commands) => this.connection.pipeline(commands),
      listTasks: () => this.#discovery.list(),
      refreshTasks: () => this.#discovery.list(),
    }, { prefix: this.prefix, refreshMs: this.#eventRefreshMs });
    return this.#events;
  }

  /** Blocking connections the live event reader holds (0 or 1). */
  get eventConnections(): number {
    return this.#events?.connections ?? 0;
  }

  /**
   * The task holding a job: one pipelined lookup over the known tasks, and
   * when the id is in none of them, one more over the tasks a rediscovery
   * finds (at most one rediscovery a second). `JOB_NOT_FOUND` when no task
   * has it.
   */
  async #taskOfJob(jobId: string): Promise<string> {
    const known = await this.#discovery.list();
    let task = await locateJob(this.connection, known, jobId, this.prefix);
    if (task === null) {
      const fresh = (await this.#discovery.refreshOnMiss() ?? []).filter((t) => !known.includes(t));
      task = await locateJob(this.connection, fresh, jobId, this.prefix);
    }
    if (task === null) throw jobNotFound(jobId);
    return task;
  }

  /** Sends a failed or cancelled job back to waiting (its data replaced, if given); see `retry.ts`. */
  async retryJob(jobId: string, options: RetryOptions = {}): Promise<JobActionResult> {
    await this.#ready();
    const task = await this.#taskOfJob(jobId);
    const result = await retryJob(
      this.connection,
      task,
      jobId,
      options.from ?? RETRYABLE_STATES,
      this.prefix,
      "data" in options ? { value: options.data } : undefined,
    );
    this.#deadLetters.invalidate();
    return result;
  }

  /** Dispatches a new job with a job's data; see `rerun.ts`. */
  async rerunJob(jobId: string): Promise<RerunResult> {
    await this.#ready();
    return await rerunJob(this.connection, await this.#taskOfJob(jobId), jobId, this.prefix);
  }

  /** Cancels a job, or signals its worker when it is active; see `cancel.ts`. */
  async cancelJob(jobId: string, reason?: string): Promise<JobActionResult> {
    await this.#ready();
    const task = await this.#taskOfJob(jobId);
    const result = await cancelJob(this.connection, task, jobId, reason, this.prefix);
    if (result.from === "retrying") this.#split.forget(task, jobId);
    return result;
  }

  /**
   * Every failed job of a task (or of every task, rediscovered first) back to
   * waiting; of one error group, with a pattern: that group read afresh, not
   * from the grouping cache, so only jobs failed now are touched.
   */
  async retryAllFailed(
    scope: FailedScope = {},
    beforeBatch?: BeforeBatch,
  ): Promise<{ retried: number }> {
    await this.#ready();
    const { task, pattern } = scope;
    let retried = 0;
    if (pattern !== undefined) {
      const tasks = task !== undefined ? [task] : await this.#discovery.list();
      const entries = await readDeadLetterEntries(this.connection, tasks, this.prefix);
      const group = inGroup(entries, pattern);
      retried = await retryFailedJobs(this.connection, group, this.prefix, beforeBatch);
    } else {
      const tasks = task !== undefined ? [task] : await this.#discovery.refresh();
      const counts = await Promise.all(
        tasks.map((name) => retryAllFailed(this.connection, name, this.prefix, beforeBatch)),
      );
      retried = counts.reduce((sum, n) => sum + n, 0);
    }
    this.#deadLetters.invalidate();
    return { retried };
  }

  /** Removes finished jobs older than `olderThanMs` (with `dryRun`: counts them); see `clean.ts`. */
  async cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
    options: CleanOptions = {},
  ): Promise<{ removed: number }> {
    await this.#ready();
    const range = cleanRange(task, state, olderThanMs, this.prefix);
    if (options.dryRun) return { removed: await countCleanable(this.connection, range) };
    const removed = await cleanJobs(this.connection, range);
    if (state === "failed") this.#deadLetters.invalidate();
    return { removed };
  }

  /** How many jobs a bulk action would act on now; see `bulk.ts`. */
  async countBulk(
    action: BulkAction,
    selector: BulkIdSelector | BulkStateSelector,
  ): Promise<number> {
    await this.#ready();
    if ("ids" in selector) return await countNamed(this.connection, action, selector, this.prefix);
    const { task, state } = selector;
    if (state === "delayed" || state === "retrying") {
      return await countDelayedState(this.connection, task, state, this.prefix);
    }
    return (await this.getStats([task])).get(task)![state];
  }

  /** One atomic step of a bulk action; see `bulk.ts`. */
  async bulkStep(
    task: string,
    action: BulkAction,
    step: BulkStep,
    reason?: string,
  ): Promise<BulkStepResult> {
    await this.#ready();
    const result = await bulkStep(this.connection, task, action, step, reason, this.prefix);
    for (const { id, from } of result.done) {
      if (from === "retrying") this.#split.forget(task, id);
      if (from === "failed") this.#deadLetters.invalidate();
    }
    return result;
  }

  /** Dispatches one run of a schedule now (once per idempotency key). */
  async triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult> {
    await this.#ready();
    return await triggerSchedule(this.connection, name, idempotencyKey, this.prefix);
  }

  /** Changes, pauses or resumes a schedule; see `schedule_actions.ts`. */
  async updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord> {
    await this.#ready();
    const { change, paused } = pausingOf(patch);
    if (change) {
      const changed = await updateSchedule(this.connection, name, change, this.prefix);
      if (paused === undefined) return changed;
    }
    return paused
      ? await pauseSchedule(this.connection, name, this.prefix)
      : await resumeSchedule(this.connection, name, this.prefix);
  }

  /** Deletes a schedule. */
  async removeSchedule(name: string): Promise<void> {
    await this.#ready();
    await removeSchedule(this.connection, name, this.prefix);
  }

  /** Cancels a running workflow and its unfinished node jobs; see `workflow_cancel.ts`. */
  async cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult> {
    await this.#ready();
    const result = await cancelWorkflow(this.connection, id, reason, this.prefix);
    this.#workflows.note(id, "cancelled");
    return result;
  }

  /** What holds a job back; see `diagnosis.ts`. */
  async getJobHolds(jobId: string): Promise<JobHolds | null> {
    await this.#ready();
    const tasks = await this.#discovery.list();
    const task = await locateJob(this.connection, tasks, jobId, this.prefix, "hash");
    return task === null ? null : await readJobHolds(this.connection, task, jobId, this.prefix);
  }

  /**
   * What the event streams say; see `activity.ts`, `reruns.ts`,
   * `drain_scan.ts` and `attempts.ts` for each read's cost.
   */
  async readStreams<R extends StreamQuery>(read: R): Promise<StreamAnswers[R["kind"]]> {
    await this.#ready();
    return await this.#readStream(read) as StreamAnswers[R["kind"]];
  }

  #readStream(read: StreamQuery): Promise<StreamAnswers[StreamQuery["kind"]]> {
    switch (read.kind) {
      case "activity":
        return readTaskActivity(this.connection, read.tasks, read.depth, this.prefix);
      case "reruns":
        return getTaskReruns(this.connection, read.tasks, read.since, this.prefix);
      case "drain":
        return scanDrain(this.connection, read.task, read.since, read.depth, this.prefix);
      case "attempts":
        return this.#discovery.list().then((tasks) =>
          getAttemptHistory(this.connection, tasks, read.jobId, this.prefix)
        );
    }
  }

  /**
   * The locks taskora keeps; see `liveness.ts`, `activity.ts` and
   * `wire/migration_lock.ts` (one round trip, read without the wire check:
   * a migration may be changing the wire version).
   */
  async readLocks<R extends LockQuery>(read: R): Promise<LockAnswers[R["kind"]]> {
    if (read.kind === "migration") {
      await this.connection.ready();
    } else {
      await this.#ready();
    }
    return await this.#readLock(read) as LockAnswers[R["kind"]];
  }

  #readLock(read: LockQuery): Promise<LockAnswers[LockQuery["kind"]]> {
    switch (read.kind) {
      case "jobs":
        return readTaskLiveness(this.connection, read.task, read.jobIds, this.prefix);
      case "active":
        return readActiveLocks(this.connection, read.task, read.limit, this.prefix);
      case "scheduler":
        return readSchedulerLeadership(this.connection, this.prefix);
      case "migration":
        return this.#migration.read();
    }
  }

  /** One bounded step of the scan for the task's mechanism keys; see `mechanics.ts`. */
  async scanMechanics(
    task: string,
    cursor: string | null,
    signal?: AbortSignal,
  ): Promise<MechanicsStep> {
    await this.#ready();
    return await scanMechanics(this.connection, task, cursor, this.prefix, signal);
  }

  /** The backlog: jobs due later (`backlog.ts`), or a task's by kind (`backlog_kinds.ts`). */
  async readBacklog<R extends BacklogQuery>(read: R): Promise<BacklogAnswers[R["kind"]]> {
    await this.#ready();
    const answer = read.kind === "dueAfter"
      ? countDueAfter(this.connection, read.tasks, read.at, this.prefix)
      : readBacklogKinds(this.connection, read.task, read.now, this.prefix, read.heldScan);
    return await answer as BacklogAnswers[R["kind"]];
  }

  /** Stops background work and closes the client if the source created it. */
  async close(): Promise<void> {
    this.#offReconnect();
    this.#offTurn();
    this.#migration.close();
    await this.#events?.close();
    await Promise.all([
      this.#reconciler.stop(),
      this.#discovery.stop(),
      this.#workflows.stop(),
      this.#deadLetters.settle(),
    ]);
    // What a leader going away shared goes with it: no follower serves it as fresh.
    if (this.#leadership.isLeading) {
      await Promise.all(
        [SHARED_TASKS, SHARED_RETRYING].map((name) =>
          this.boardStore.removeSharedResult(name).catch(() => {})
        ),
      );
    }
    await this.#leadership.close();
    await this.connection.close();
  }
}

/**
 * Creates the Redis TaskSource.
 *
 * @example
 * ```ts ignore
 * const source = createRedisSource({ url: "redis://127.0.0.1:6379", prefix: "app" });
 * ```
 */
export function createRedisSource(options: RedisSourceOptions = {}): RedisTaskSource {
  return checkedSource(new RedisTaskSource(options));
}
