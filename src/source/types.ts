/**
 * The TaskSource port: everything the board needs from a task system.
 *
 * Routes in `src/api` only ever talk to this interface; the Redis source
 * (`src/source/redis`) and the in-memory source (`src/source/memory`) implement
 * it, and one contract suite (`tests/contract`) holds both to the same answers.
 *
 * Values here are decoded (JSON parsed, numbers as numbers) but neither
 * formatted nor redacted: presentation is the API layer's job.
 *
 * @module
 */

/** Every state a taskora job can be in, in the order the board shows them. */
export const JOB_STATES = [
  "waiting",
  "active",
  "delayed",
  "retrying",
  "failed",
  "completed",
  "cancelled",
  "expired",
] as const;

/** A taskora job state. `retrying` jobs share the delayed set with `delayed` ones. */
export type JobState = typeof JOB_STATES[number];

/** States whose jobs have finished and sit in a set scored by finish time. */
export const FINISHED_STATES = ["completed", "failed", "cancelled", "expired"] as const;

/** A finished job state. */
export type FinishedState = typeof FINISHED_STATES[number];

/** Job counts of one task, one number per state. */
export type QueueStats = Record<JobState, number>;

/** Every overall state taskora writes on a workflow. */
export const WORKFLOW_STATES = ["running", "completed", "failed", "cancelled"] as const;

/** A workflow's overall state, as taskora writes it. */
export type WorkflowState = typeof WORKFLOW_STATES[number];

/** One entry of a job's log list. */
export interface LogEntry {
  /** `info`, `warn` or `error`. */
  level: string;
  /** What the job logged. */
  message: string;
  /** Structured context the job attached. */
  meta?: Record<string, unknown>;
  /** When it was logged (ms). */
  timestamp: number;
}

/** Where a job sits in a workflow graph. */
export interface WorkflowLink {
  /** The workflow id. */
  id: string;
  /** The job's node in the workflow graph. */
  nodeIndex: number;
}

/** A job named by its id and its task, as a search finds it. */
export interface JobRef {
  /** The job id. */
  id: string;
  /** The task the job belongs to. */
  task: string;
}

/** A job as listed in a table: everything but its logs. */
export interface JobRecord {
  /** The job id. */
  id: string;
  /** The task the job belongs to. */
  task: string;
  /** Where the job is now. */
  state: JobState;
  /** The job's input, decoded. */
  data: unknown;
  /** What the job returned, decoded; null until it completes. */
  result: unknown;
  /** The last error message, or null. */
  error: string | null;
  /** The last progress the job reported: a number or an object. */
  progress: number | Record<string, unknown> | null;
  /** The attempt running or last run (1 for the first). */
  attempt: number;
  /** How many attempts the job may have. */
  maxAttempts: number;
  /** The task version (`_v`) the job was dispatched with. */
  version: number;
  /** Dispatch priority (0 = the plain wait list). */
  priority: number;
  /** Dispatch time (`ts`), ms. */
  createdAt: number;
  /** When the last attempt started (`processedOn`), ms. */
  processedAt: number | null;
  /** When the job finished (`finishedOn`), ms. */
  finishedAt: number | null;
  /** When a delayed or retrying job becomes runnable (its delayed-set score), ms. */
  runAt: number | null;
  /** When a cancel was requested (ms). */
  cancelledAt: number | null;
  /** Why it was cancelled. */
  cancelReason: string | null;
  /** When the job expires if it has not started (ms). */
  expireAt: number | null;
  /** How often a worker lost the job. */
  stalledCount: number;
  /** The workflow node this job runs, or null. */
  workflow: WorkflowLink | null;
}

/** How many of a job's newest log entries {@link TaskSource.getJob} carries. */
export const JOB_DETAIL_LOGS = 100;

/** A job in full: its record plus its newest logs. */
export interface JobDetail extends JobRecord {
  /**
   * The newest {@link JOB_DETAIL_LOGS} entries the job logged, oldest first;
   * {@link TaskSource.getJobLogs} pages through all of them.
   */
  logs: LogEntry[];
  /** How many entries the job's log holds. */
  logCount: number;
}

/** A page of a job's log and the size of the whole log. */
export interface LogPage {
  /** The entries of the page, oldest first. */
  logs: LogEntry[];
  /** How many entries the job's log holds. */
  total: number;
}

/** One page of jobs and the size of the whole list it was cut from. */
export interface JobPage {
  /** The jobs of the page. */
  jobs: JobRecord[];
  /** How many jobs the whole list holds. */
  total: number;
}

/** Storage footprint of one task. */
export interface TaskStorage {
  /** Keys the task holds. */
  keyCount: number;
  /** Bytes they take (partly estimated). */
  memoryBytes: number;
}

/** Job counts by task version (`_v` → count). */
export type VersionCounts = Record<string, number>;

/** How the jobs still to run are spread over task versions. */
export interface VersionDistribution {
  /** Waiting and active jobs. */
  queue: VersionCounts;
  /** Delayed jobs. */
  delayed: VersionCounts;
  /** Jobs waiting for a retry. */
  retrying: VersionCounts;
  /** The highest `_v` seen on any job of the task (including finished ones), or null. */
  latestVersion: number | null;
}

/** A schedule as stored by taskora's scheduler. */
export interface ScheduleConfig {
  /** The task each run dispatches. */
  task: string;
  /** The data each run dispatches. */
  data?: unknown;
  /** Interval between runs (ms), when not cron. */
  every?: number;
  /** Cron expression, when not an interval. */
  cron?: string;
  /** Time zone of the cron expression. */
  timezone?: string;
  /** What to do with runs missed while no scheduler ran. */
  onMissed?: string;
  /** Whether a run may start while the last one is still going. */
  overlap?: boolean;
}

/** A schedule with its run bookkeeping. */
export interface ScheduleRecord {
  /** The schedule's name. */
  name: string;
  /** How it runs. */
  config: ScheduleConfig;
  /** Next run (ms), or null when paused. */
  nextRun: number | null;
  /** When it last ran (ms). */
  lastRun: number | null;
  /** The job its last run dispatched. */
  lastJobId: string | null;
  /** State of the last run's job, or null when it has none or the job is gone. */
  lastRunStatus: JobState | null;
  /** Paused schedules have no next run. */
  paused: boolean;
}

/** A workflow as listed. */
export interface WorkflowSummary {
  /** The workflow id. */
  id: string;
  /** Its name, e.g. `chain(a → b)`, when taskora stored one. */
  name: string | null;
  /** The workflow's overall state. */
  state: WorkflowState;
  /** When it was dispatched (ms). */
  createdAt: number;
  /** How many jobs the graph holds. */
  nodeCount: number;
  /** Distinct task names of the nodes, in node order. */
  tasks: string[];
}

/** One node of a workflow graph, as taskora stores it. */
export interface WorkflowGraphNode {
  /** The node's task. */
  taskName: string;
  /** Indexes of the nodes it waits for. */
  deps: number[];
  /** The job id the node runs as. */
  jobId: string;
  /** The task version the node was dispatched with. */
  _v: number;
  /** The node's serialized input, when it had its own. */
  data?: string;
}

/** A node's run state inside a workflow. */
export interface WorkflowNodeState {
  /** Position in the graph. */
  index: number;
  /** The node's task. */
  taskName: string;
  /** The job id the node runs as. */
  jobId: string;
  /** Indexes of the nodes it waits for. */
  deps: number[];
  /**
   * The node's state as the workflow sees it (`pending` until taskora writes
   * one; `active` once its job is dispatched, whether it runs yet or not).
   */
  state: string;
  /**
   * The state of the node's own job (a dispatched node's job may still be
   * waiting, delayed or retrying), or null when there is no such job: never
   * dispatched, or already removed by retention.
   */
  jobState: JobState | null;
  /** The node's result, decoded. */
  result: unknown;
  /** The node's error, if it failed. */
  error: string | null;
}

/** A workflow in full. */
export interface WorkflowDetail extends WorkflowSummary {
  /** The graph as taskora stored it. */
  graph: { nodes: WorkflowGraphNode[]; terminal: number[]; name?: string };
  /** Every node's run state, by index. */
  nodes: WorkflowNodeState[];
  /** The workflow's result, decoded. */
  result: unknown;
  /** Why it failed or was cancelled. */
  error: string | null;
}

/** One page of workflows. */
export interface WorkflowPage {
  /** The workflows of the page. */
  workflows: WorkflowSummary[];
  /** How many workflows there are. */
  total: number;
}

/** Failed jobs that share one error, once numbers, ids and hex are set aside. */
export interface DeadLetterGroup {
  /** The error with its variable parts replaced by placeholders. */
  pattern: string;
  /** One real error message of the group. */
  sample: string;
  /** How many failed jobs share it. */
  count: number;
  /** The tasks they belong to. */
  tasks: string[];
  /** When the first of them failed (ms). */
  firstSeen: number;
  /** When the last of them failed (ms). */
  lastSeen: number;
  /** A few of their job ids. */
  sampleJobIds: string[];
}

/** One minute (or other bucket) of finished jobs. */
export interface ThroughputBucket {
  /** Start of the bucket (ms). */
  timestamp: number;
  /** Jobs completed in it. */
  completed: number;
  /** Jobs that failed for good in it. */
  failed: number;
}

/**
 * The ends of a task's queues that tell whether work moves: the job active
 * longest and the delayed (or retrying) job due first.
 */
export interface QueueHeads {
  /** The job claimed longest ago and still active, with when its attempt started (ms). */
  oldestActive: { id: string; since: number } | null;
  /** The delayed or retrying job that runs next, with its run-at time (ms). */
  nextDue: { id: string; at: number } | null;
}

/** What the board shows about the store behind the source. */
export interface StoreInfo {
  /** The store's version (Redis `redis_version`). */
  version: string;
  /** Memory in use, human-readable (`46.00M`). */
  usedMemory: string;
  /** Memory in use in bytes. */
  usedMemoryBytes: number;
  /** Seconds the store has been up. */
  uptime: number;
  /** Whether the store answers. */
  connected: boolean;
}

/** Options of a throughput query. */
export interface ThroughputQuery {
  /** Limit to one task; all tasks when omitted. */
  task?: string;
  /** Bucket width in ms (default one minute). */
  bucketMs?: number;
  /** Number of buckets, newest last (default 1,440: 24 h of minutes). */
  count?: number;
}

/** What a single-job action did. */
export interface JobActionResult {
  /** The job id. */
  id: string;
  /** The job's task. */
  task: string;
  /** The state it was in. */
  from: JobState;
  /**
   * The state it is in now; `cancelling` for an active job that was only
   * signalled (its worker finishes the cancel).
   */
  to: JobState | "cancelling";
}

/** What triggering a schedule did. */
export interface TriggerResult {
  /** The job the run was dispatched as. */
  jobId: string;
  /**
   * False when a trigger with the same idempotency key had already
   * dispatched it: nothing new was dispatched.
   */
  created: boolean;
}

/** Changes to a schedule; absent fields keep their value. `cron` and `every` replace each other. */
export interface SchedulePatch {
  /** A cron expression (drops `every`). */
  cron?: string;
  /** An interval in ms (drops `cron` and `timezone`). */
  every?: number;
  /** Time zone of the cron expression; null removes it. */
  timezone?: string | null;
  /** The data each run dispatches. */
  data?: unknown;
  /** What to do with missed runs. */
  onMissed?: string;
  /** Whether runs may overlap. */
  overlap?: boolean;
}

/** What cancelling a workflow did. */
export interface WorkflowCancelResult {
  /** Node jobs cancelled at once (waiting, delayed, retrying, or never dispatched). */
  cancelled: number;
  /** Active node jobs whose workers were signalled to stop. */
  signalled: number;
}

/**
 * One entry of a task's event stream (`taskora:{T}:events`), as the worker
 * wrote it: the kind, the job, and the other fields as raw strings.
 */
export interface TaskEvent {
  /** The task whose stream it is. */
  task: string;
  /**
   * The kind: waiting, delayed, active, progress, completed, failed,
   * retrying, cancelled, stalled, expired, promoted, …
   */
  event: string;
  /** The job it is about. */
  jobId: string;
  /** The other stream fields (attempt, result, duration, error, value, …), undecoded. */
  fields: Record<string, string>;
  /** When it was written (ms; for Redis the time part of the stream entry id). */
  at: number;
}

/**
 * The port between the board and a task system.
 *
 * Every method that reads across tasks does it in a constant number of round
 * trips; none scans the whole store per call.
 */
export interface TaskSource {
  /** Names of every task the store knows, sorted. Served from a cache refreshed in the background. */
  listTasks(): Promise<string[]>;
  /** Rediscovers tasks now (before an all-task action) and returns them. */
  refreshTasks(): Promise<string[]>;
  /** Counts per state for each named task, in one batch. */
  getStats(tasks: string[]): Promise<Map<string, QueueStats>>;
  /**
   * For each named task, its {@link QueueHeads}, in one batch: the tail of
   * the active list and the head of the delayed set, O(1) per task (plus
   * O(log N) for the set); nulls for a task the store does not know.
   */
  getQueueHeads(tasks: string[]): Promise<Map<string, QueueHeads>>;
  /** Key count and memory of one task. */
  getTaskStorage(task: string): Promise<TaskStorage>;
  /**
   * One page of a task's jobs in a state. Queues come in the order workers take
   * them (the wait list, then the prioritized set by priority), delayed and
   * retrying jobs by run time, finished jobs newest first.
   */
  listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage>;
  /**
   * A job by id, looked up across every task, with its newest
   * {@link JOB_DETAIL_LOGS} log entries; null when no task has it.
   */
  getJob(jobId: string): Promise<JobDetail | null>;
  /**
   * Entries `offset` to `offset + limit - 1` of a job's log (counted from
   * the oldest, so a page stays put while the job logs more), and how many
   * there are; null when no task has the job. Costs O(limit), not O(log).
   */
  getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null>;
  /**
   * Jobs whose id starts with `prefix`, at most `limit`, sorted by id: how
   * the short ids the UI shows are found. Bounded by design: the memory
   * source looks at every job it holds; the Redis source only at the ids it
   * has recently served (a prefix search of the keyspace is a full SCAN,
   * see `redis/recent_job_ids.ts`).
   */
  findJobsByIdPrefix(prefix: string, limit: number): Promise<JobRef[]>;
  /** Task-version spread of the jobs that have yet to run. */
  getVersionDistribution(task: string): Promise<VersionDistribution>;
  /** Every schedule, sorted by name. */
  listSchedules(): Promise<ScheduleRecord[]>;
  /** Workflows (only those in `state`, when given), newest first. */
  listWorkflows(offset: number, limit: number, state?: WorkflowState): Promise<WorkflowPage>;
  /** A workflow by id, or null. */
  getWorkflow(id: string): Promise<WorkflowDetail | null>;
  /**
   * Failed jobs of every task (or one), most recently failed first; with
   * `pattern`, only those of that error group (a {@link DeadLetterGroup.pattern}).
   */
  listDeadLetters(
    offset: number,
    limit: number,
    task?: string,
    pattern?: string,
  ): Promise<JobPage>;
  /** Failed jobs grouped by error, most frequent first. */
  groupDeadLetters(task?: string): Promise<DeadLetterGroup[]>;
  /** Finished-job counts per bucket, oldest first. */
  getThroughput(query?: ThroughputQuery): Promise<ThroughputBucket[]>;
  /** Version, memory and uptime of the store. */
  getStoreInfo(): Promise<StoreInfo>;
  /**
   * Sends a failed (or cancelled) job back to waiting, attempt 1, as a fresh
   * dispatch. `JOB_NOT_FOUND` for an unknown id; `INVALID_STATE` (naming the
   * state) when the job is in none of the `from` states.
   */
  retryJob(jobId: string, from?: readonly ("failed" | "cancelled")[]): Promise<JobActionResult>;
  /**
   * Cancels a waiting, delayed or retrying job at once, or signals an active
   * one's worker; `INVALID_STATE` for a finished job.
   */
  cancelJob(jobId: string, reason?: string): Promise<JobActionResult>;
  /**
   * Sends every failed job of one task (or of every task, rediscovered first)
   * back to waiting, in atomic batches of 100.
   */
  retryAllFailed(task?: string): Promise<{ retried: number }>;
  /** Sends the failed jobs of one error group (of every task, or one) back to waiting. */
  retryDeadLetterGroup(pattern: string, task?: string): Promise<{ retried: number }>;
  /** Removes finished jobs of a state that finished more than `olderThanMs` ago, in batches. */
  cleanJobs(task: string, state: FinishedState, olderThanMs: number): Promise<{ removed: number }>;
  /** How many jobs {@link TaskSource.cleanJobs} would remove now, removing none. */
  countCleanable(task: string, state: FinishedState, olderThanMs: number): Promise<number>;
  /** Pauses a schedule (no next run); `SCHEDULE_NOT_FOUND` for an unknown name. */
  pauseSchedule(name: string): Promise<ScheduleRecord>;
  /** Resumes a schedule, its next run computed from now. */
  resumeSchedule(name: string): Promise<ScheduleRecord>;
  /**
   * Dispatches one run of a schedule now; its next run does not move. With
   * an `idempotencyKey` (1 to 200 printable ASCII characters) the job id is
   * derived from the schedule and the key, and a trigger whose job exists
   * already dispatches nothing and returns that job (`created: false`), so
   * an operator's retry after an unconfirmed answer never makes a second one.
   */
  triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult>;
  /** Changes a schedule; the next run is recomputed unless it is paused. */
  updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord>;
  /** Deletes a schedule. */
  removeSchedule(name: string): Promise<void>;
  /**
   * Cancels a running workflow: pending node jobs become cancelled, active
   * ones are signalled, finished ones keep their state. `INVALID_STATE` for a
   * finished workflow.
   */
  cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult>;
  /**
   * Calls `listener` for every event written to any task's stream from now
   * on (tasks that appear later included), in stream order per task; returns
   * the unsubscribe function. Sources share one reader between all
   * listeners: the first subscription starts it, the last unsubscribe stops
   * it. Listeners must not throw.
   */
  subscribe(listener: (event: TaskEvent) => void): () => void;
  /** Stops background work and releases connections the source owns. */
  close(): Promise<void>;
}
