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

/** A workflow's overall state, as taskora writes it. */
export type WorkflowState = "running" | "completed" | "failed" | "cancelled";

/** One entry of a job's log list. */
export interface LogEntry {
  level: string;
  message: string;
  meta?: Record<string, unknown>;
  timestamp: number;
}

/** Where a job sits in a workflow graph. */
export interface WorkflowLink {
  id: string;
  nodeIndex: number;
}

/** A job as listed in a table: everything but its logs. */
export interface JobRecord {
  id: string;
  task: string;
  state: JobState;
  data: unknown;
  result: unknown;
  error: string | null;
  progress: number | Record<string, unknown> | null;
  attempt: number;
  maxAttempts: number;
  /** The task version (`_v`) the job was dispatched with. */
  version: number;
  priority: number;
  /** Dispatch time (`ts`), ms. */
  createdAt: number;
  processedAt: number | null;
  finishedAt: number | null;
  /** When a delayed or retrying job becomes runnable (its delayed-set score), ms. */
  runAt: number | null;
  cancelledAt: number | null;
  cancelReason: string | null;
  expireAt: number | null;
  stalledCount: number;
  workflow: WorkflowLink | null;
}

/** A job in full: its record plus its logs. */
export interface JobDetail extends JobRecord {
  logs: LogEntry[];
}

/** One page of jobs and the size of the whole list it was cut from. */
export interface JobPage {
  jobs: JobRecord[];
  total: number;
}

/** Storage footprint of one task. */
export interface TaskStorage {
  keyCount: number;
  memoryBytes: number;
}

/** Job counts by task version (`_v` → count). */
export type VersionCounts = Record<string, number>;

/** How the jobs still to run are spread over task versions. */
export interface VersionDistribution {
  /** Waiting and active jobs. */
  queue: VersionCounts;
  delayed: VersionCounts;
  retrying: VersionCounts;
  /** The highest `_v` seen on any job of the task (including finished ones), or null. */
  latestVersion: number | null;
}

/** A schedule as stored by taskora's scheduler. */
export interface ScheduleConfig {
  task: string;
  data?: unknown;
  every?: number;
  cron?: string;
  timezone?: string;
  onMissed?: string;
  overlap?: boolean;
}

/** A schedule with its run bookkeeping. */
export interface ScheduleRecord {
  name: string;
  config: ScheduleConfig;
  /** Next run (ms), or null when paused. */
  nextRun: number | null;
  lastRun: number | null;
  lastJobId: string | null;
  /** State of the last run's job, or null when it has none or the job is gone. */
  lastRunStatus: JobState | null;
  paused: boolean;
}

/** A workflow as listed. */
export interface WorkflowSummary {
  id: string;
  name: string | null;
  state: WorkflowState;
  createdAt: number;
  nodeCount: number;
  /** Distinct task names of the nodes, in node order. */
  tasks: string[];
}

/** One node of a workflow graph, as taskora stores it. */
export interface WorkflowGraphNode {
  taskName: string;
  deps: number[];
  jobId: string;
  _v: number;
  data?: string;
}

/** A node's run state inside a workflow. */
export interface WorkflowNodeState {
  index: number;
  taskName: string;
  jobId: string;
  deps: number[];
  /** The node's state (`pending` until taskora writes one). */
  state: string;
  result: unknown;
  error: string | null;
}

/** A workflow in full. */
export interface WorkflowDetail extends WorkflowSummary {
  graph: { nodes: WorkflowGraphNode[]; terminal: number[]; name?: string };
  nodes: WorkflowNodeState[];
  result: unknown;
  error: string | null;
}

/** One page of workflows. */
export interface WorkflowPage {
  workflows: WorkflowSummary[];
  total: number;
}

/** Failed jobs that share one error, once numbers, ids and hex are set aside. */
export interface DeadLetterGroup {
  /** The error with its variable parts replaced by placeholders. */
  pattern: string;
  /** One real error message of the group. */
  sample: string;
  count: number;
  tasks: string[];
  firstSeen: number;
  lastSeen: number;
  sampleJobIds: string[];
}

/** One minute (or other bucket) of finished jobs. */
export interface ThroughputBucket {
  timestamp: number;
  completed: number;
  failed: number;
}

/** What the board shows about the store behind the source. */
export interface StoreInfo {
  version: string;
  usedMemory: string;
  usedMemoryBytes: number;
  /** Seconds the store has been up. */
  uptime: number;
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
  /** Key count and memory of one task. */
  getTaskStorage(task: string): Promise<TaskStorage>;
  /** One page of a task's jobs in a state: newest finished first, queues in run order. */
  listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage>;
  /** A job by id, looked up across every task; null when no task has it. */
  getJob(jobId: string): Promise<JobDetail | null>;
  /** Task-version spread of the jobs that have yet to run. */
  getVersionDistribution(task: string): Promise<VersionDistribution>;
  /** Every schedule, sorted by name. */
  listSchedules(): Promise<ScheduleRecord[]>;
  /** Workflows, newest first. */
  listWorkflows(offset: number, limit: number): Promise<WorkflowPage>;
  /** A workflow by id, or null. */
  getWorkflow(id: string): Promise<WorkflowDetail | null>;
  /** Failed jobs of every task (or one), most recently failed first. */
  listDeadLetters(offset: number, limit: number, task?: string): Promise<JobPage>;
  /** Failed jobs grouped by error, most frequent first. */
  groupDeadLetters(task?: string): Promise<DeadLetterGroup[]>;
  /** Finished-job counts per bucket, oldest first. */
  getThroughput(query?: ThroughputQuery): Promise<ThroughputBucket[]>;
  /** Version, memory and uptime of the store. */
  getStoreInfo(): Promise<StoreInfo>;
  /** Stops background work and releases connections the source owns. */
  close(): Promise<void>;
}
