/**
 * The TaskSource port: everything the board needs from a task system.
 *
 * Routes in `src/api` only ever talk to this interface; the Redis source
 * (`src/source/redis`) and the in-memory source (`src/source/memory`) implement
 * it, and one contract suite (`tests/contract`) holds both to the same answers.
 *
 * Values here are decoded (JSON parsed, numbers as numbers, no raw storage
 * strings left) but neither formatted nor redacted: presentation is the
 * presenter's job (`src/contract/present.ts`), for the routes and the event
 * stream alike. Values that are also wire types are the contract's.
 *
 * @module
 */

import type { JobFields, JobRef as RecordedJobRef } from "../history/recorder.ts";
import type { AttemptHistory, AttemptRecord, RunOutcome, RunRecord } from "../contract/attempts.ts";
import type { BacklogKinds, BacklogRead } from "../contract/scaling.ts";
import type { JobMatch } from "../contract/job_lookup.ts";
import type { SessionRevocations, SignedOutSession } from "../store/session_revocations.ts";
export type {
  LeaseState,
  OperationClaim,
  OperationCursor,
  OperationLimits,
  OperationSave,
  OperationStore,
  StoredOperation,
} from "../store/operation_store.ts";
export type { SessionRevocations, SignedOutSession };
import type { ScanSlotAnswer, ScanSlotClaim, ScanSlotRefusal } from "../store/scan_slot_rules.ts";
export type { ScanSlotAnswer, ScanSlotClaim, ScanSlotRefusal };
import type { LeaseHold } from "../leadership.ts";
export type { LeaseHold };
import type {
  AuditAppendOptions,
  AuditEntry,
  AuditLog,
  AuditOutcome,
  AuditPage,
  AuditQuery,
  AuditRecord,
} from "../contract/audit.ts";
import type {
  BulkAction,
  BulkFilterSelector,
  BulkIdSelector,
  BulkOperation,
  BulkSelector,
  BulkSkip,
  BulkStateSelector,
  OperationStatus,
} from "../contract/bulk.ts";
import type { DeadLetterGroup } from "../contract/dlq.ts";
import type {
  JobFilter,
  JobFilterParam,
  JobFilterQuery,
  PayloadCondition,
  SearchField,
} from "../contract/job_filter.ts";
import type { JobEventFields as TaskEventFields } from "../contract/events.ts";
import type { QueueHeads } from "../contract/health.ts";
import type { FinishedTiming } from "../contract/latency.ts";
import type {
  JobActionResult,
  JobDetail,
  JobRecord,
  JobRow,
  LogEntry,
  LogPage,
  RerunResult,
  WorkflowLink,
} from "../contract/jobs.ts";
import type {
  BoardRun,
  BoardRunRecord,
  ScheduleConfig,
  ScheduleRecord,
  TriggerResult,
} from "../contract/schedules.ts";
import type {
  FinishedState,
  JobState,
  QueueStats,
  RetryableState,
  WorkflowState,
} from "../contract/states.ts";
import type {
  JobLock,
  LivenessUnknown,
  SchedulerLeader,
  SchedulerLeadership,
  StalledCount,
  StalledJobs,
  TaskLiveness,
} from "../contract/liveness.ts";
import type {
  CollectHold,
  ConcurrencyHold,
  DiagnosisCode,
  DiagnosisReason,
  EvidenceValue,
  JobHolds,
} from "../contract/diagnosis.ts";
import type { MigrationLock } from "../contract/migration_lock.ts";
import type { ActiveLocks, TaskActivity } from "../contract/workers.ts";
import type { BacklogSample } from "../contract/forecast.ts";
import type { DrainScan } from "../contract/queue_eta.ts";
import type { MechanicsStep, MechanismEntry } from "../contract/mechanics.ts";
import type { DispatchRequest, DispatchResult } from "../contract/dispatch.ts";
import type { TaskDefinition, VersionCounts } from "../contract/tasks.ts";
import type { ThroughputBucket } from "../contract/throughput.ts";
export type {
  KeptThroughputRead,
  KeptThroughputWrite,
  MinuteCount,
  ThroughputStore,
} from "../store/throughput.ts";
import type {
  WorkflowCancelResult,
  WorkflowDetail,
  WorkflowGraph,
  WorkflowGraphNode,
  WorkflowNodeState,
  WorkflowSummary,
} from "../contract/workflows.ts";

// The port's values that are also wire types are the contract's, named here too.
export {
  CANCELLABLE_STATES,
  FINISHED_STATES,
  JOB_STATES,
  RETRYABLE_STATES,
  WORKFLOW_STATES,
} from "../contract/states.ts";
export { JOB_DETAIL_LOGS } from "../contract/jobs.ts";
export { BULK_ACTION_STATES, BULK_BATCH } from "../contract/bulk.ts";
export { DIAGNOSIS_CODES } from "../contract/diagnosis.ts";
export type { BacklogKinds, BacklogRead };
export type {
  ActiveLocks,
  AttemptHistory,
  AttemptRecord,
  AuditAppendOptions,
  AuditEntry,
  AuditLog,
  AuditOutcome,
  AuditPage,
  AuditQuery,
  AuditRecord,
  BacklogSample,
  BoardRun,
  BoardRunRecord,
  BulkAction,
  BulkFilterSelector,
  BulkIdSelector,
  BulkOperation,
  BulkSelector,
  BulkSkip,
  BulkStateSelector,
  CollectHold,
  ConcurrencyHold,
  DeadLetterGroup,
  DiagnosisCode,
  DiagnosisReason,
  DispatchRequest,
  DispatchResult,
  DrainScan,
  EvidenceValue,
  FinishedState,
  FinishedTiming,
  JobActionResult,
  JobDetail,
  JobFilter,
  JobFilterParam,
  JobFilterQuery,
  JobHolds,
  JobLock,
  JobMatch,
  JobRecord,
  JobRow,
  JobState,
  LivenessUnknown,
  LogEntry,
  LogPage,
  MechanicsStep,
  MechanismEntry,
  MigrationLock,
  OperationStatus,
  PayloadCondition,
  QueueHeads,
  QueueStats,
  RerunResult,
  RetryableState,
  RunOutcome,
  RunRecord,
  ScheduleConfig,
  ScheduleRecord,
  SchedulerLeader,
  SchedulerLeadership,
  SearchField,
  StalledCount,
  StalledJobs,
  TaskActivity,
  TaskDefinition,
  TaskEventFields,
  TaskLiveness,
  ThroughputBucket,
  TriggerResult,
  VersionCounts,
  WorkflowCancelResult,
  WorkflowDetail,
  WorkflowGraph,
  WorkflowGraphNode,
  WorkflowLink,
  WorkflowNodeState,
  WorkflowState,
  WorkflowSummary,
};

/** A job named by its id and its task, as a search finds it. */
export interface JobRef {
  /** The job id. */
  id: string;
  /** The task the job belongs to. */
  task: string;
}

/** A job's state as {@link TaskSource.getJobStates} read it. */
export interface JobStateRead {
  /** The state, or null when the job is gone. */
  state: JobState | null;
  /**
   * When a state the source trusts from an earlier read was read (ms): a
   * source may keep a finished one a while (Redis: a minute). Absent where
   * the state was read for this answer.
   */
  readAt?: number;
}

/** Whether jobs of `task` may be listed: a permission asked per task. */
export type TaskFilter = (task: string) => Promise<boolean>;

/** One page of jobs and the size of the whole list it was cut from. */
export interface JobPage {
  /** The jobs of the page, without their payloads (a source need not read them). */
  jobs: JobRow[];
  /** How many jobs the whole list holds. */
  total: number;
}

/**
 * Where a search of a state's jobs goes on from. `at` is the score the next
 * slice starts at (finished states, scanned newest first: members at or
 * below it, less the first `skip` of that exact score) or the index in the
 * state's list (other states). `scanned` is carried for the progress shown.
 */
export interface SearchPosition {
  /** A score or an index, as above. */
  at: number;
  /** Members of score `at` already looked at (finished states); 0 otherwise. */
  skip: number;
  /** Jobs looked at before this position, for progress. */
  scanned: number;
}

/** A job a search slice found, with the value its payload condition looked at. */
export interface SearchCandidate {
  /** The job's row. */
  job: JobRow;
  /**
   * The decoded value of the condition's field (`logs`: the entries looked
   * at); absent when the filter has no payload condition.
   */
  value?: unknown;
  /** Where a search that stops at this job continues: the position just past it. */
  after: SearchPosition;
  /** Jobs of the slice skipped as too big before this one. */
  skippedBefore: number;
}

/** What one slice of a search looked at and found. */
export interface SearchSlice {
  /**
   * Jobs that pass the time range and the id prefix and whose field may
   * match the payload condition: the caller decides on the presented
   * value ({@link SearchCandidate.value}), a source may over-include.
   */
  candidates: SearchCandidate[];
  /** Jobs looked at by this slice. */
  scanned: number;
  /** Jobs whose field was over `MAX_SEARCHED_FIELD_BYTES` and not searched. */
  skipped: number;
  /** Jobs of the scanned range (the state, or its time range when that is indexed). */
  total: number;
  /** Where the next slice starts, or null when the range is done. */
  next: SearchPosition | null;
}

/**
 * One atomic step of a bulk action: the named jobs, or the members
 * `offset` to `offset + limit - 1` of a state's list or set, acting on at
 * most `most` of them (the step stops looking once it has: its `examined`
 * counts the members it looked at).
 *
 * `finishedBy` (ms): a finished job (retry, delete) that finished after it
 * is left alone, as a job in another state is: a worker ran it again since
 * the operation started, so acting on it again would act twice.
 */
export type BulkStep =
  & ({ ids: readonly string[] } | {
    state: JobState;
    offset: number;
    limit: number;
    most: number;
  })
  & { finishedBy?: number };

/**
 * Asked before each batch of an action on many jobs (retry-all, a DLQ
 * group's retry): true lets the batch run, false stops the action there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { BeforeBatch } from "./types.ts";
 * const unlessLocked: BeforeBatch = () => Promise.resolve(true);
 * assert.equal(await unlessLocked(), true);
 * ```
 */
export type BeforeBatch = () => Promise<boolean>;

/** What one {@link BulkStep} did. */
export interface BulkStepResult {
  /** Jobs (or members) it looked at. */
  examined: number;
  /**
   * Members it looked at that are still in the state's list or set (in
   * another state, or active jobs only signalled): the next step starts
   * after them. Always 0 for ids.
   */
  kept: number;
  /** Jobs it acted on, and the state each was in. */
  done: { id: string; from: JobState }[];
  /** Active jobs of {@link BulkStepResult.done} whose worker was told to cancel them. */
  signalled: number;
  /** Named jobs it left alone: gone, or in a state the action does not take. */
  skipped: BulkSkip[];
}

/** A task's counts and queue heads, read together. */
export interface QueueSnapshot {
  /** Its counts per state. */
  stats: QueueStats;
  /** Its oldest waiting and active jobs and the delayed job due first. */
  heads: QueueHeads;
  /** Its active jobs without a lock; null when the source cannot read locks. */
  stalled: StalledCount | null;
}

/**
 * What a caller of {@link TaskSource.getQueueSnapshots} keeps from its last
 * read of a task and need not be read again: the tasks whose oldest waiting
 * job (`waiting`), oldest active job (`active`), next due job (`due`) and
 * active jobs' locks (`locks`) it keeps, and per task the counts no event
 * since can have changed (`counts`). A source may read them anyway; one that
 * skips them answers `oldestWaiting`, `oldestActive`, `nextDue` and `stalled`
 * null for those tasks, and the counts as given.
 */
export interface KeptParts {
  /** Tasks whose oldest waiting job the caller keeps. */
  waiting?: ReadonlySet<string>;
  /** Tasks whose oldest active job the caller keeps. */
  active?: ReadonlySet<string>;
  /** Tasks whose next due delayed job the caller keeps. */
  due?: ReadonlySet<string>;
  /** Tasks whose active jobs' locks the caller keeps. */
  locks?: ReadonlySet<string>;
  /**
   * Per task, its counts as last read and the states of them the caller
   * keeps (`delayed` for the whole delayed set, retrying jobs included;
   * `waiting` only with the task's oldest waiting job).
   */
  counts?: ReadonlyMap<string, KeptCounts>;
}

/**
 * What a caller of {@link TaskSource.getThroughputByTask} keeps from its
 * last read of a task's one-minute buckets.
 */
export interface KeptMinutes {
  /**
   * Per task, its buckets as last read, whose failures no event since can
   * have changed: a minute's failed figure is then at least the kept one's,
   * and a source need not read again what made it (the failed set).
   */
  failures?: ReadonlyMap<string, readonly ThroughputBucket[]>;
}

/** A task's counts as last read, and which of them still hold. */
export interface KeptCounts {
  /** The counts as last read. */
  stats: QueueStats;
  /** The states whose counts still hold. */
  states: ReadonlySet<CountedState>;
}

/** A count a queue snapshot reads: a {@link QueueStats} state, `retrying` within `delayed`. */
export type CountedState = Exclude<keyof QueueStats, "retrying">;

/** Storage footprint of one task. */
export interface TaskStorage {
  /** Keys the task holds. */
  keyCount: number;
  /** Bytes they take (partly estimated). */
  memoryBytes: number;
}

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

/** One page of workflows. */
export interface WorkflowPage {
  /** The workflows of the page. */
  workflows: WorkflowSummary[];
  /** How many workflows there are. */
  total: number;
}

/** What the board shows about the store behind the source. */
export interface StoreInfo {
  /** The store's version (Redis `redis_version`). */
  version: string;
  /** Memory in use, human-readable (`46.00M`). */
  usedMemory: string;
  /** Memory in use in bytes. */
  usedMemoryBytes: number;
  /** Its memory limit in bytes (Redis `maxmemory`), null without one; absent when unknown. */
  maxMemoryBytes?: number | null;
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
  /**
   * Keys the board showed `data` masked under (its `redact`): under each,
   * the stored value is kept (see `keep_masked.ts`).
   */
  maskedKeys?: readonly string[];
  /** What to do with missed runs. */
  onMissed?: string;
  /** Whether runs may overlap. */
  overlap?: boolean;
  /** Pauses the schedule (no next run), or resumes it (its next run computed from now). */
  paused?: boolean;
}

/**
 * One entry of a task's event stream (`taskora:{T}:events`): the kind, the
 * job, and the other fields, decoded.
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
  /** The other stream fields (attempt, result, duration, error, value, …), decoded. */
  fields: TaskEventFields;
  /** When it was written (ms; for Redis the time part of the stream entry id). */
  at: number;
  /**
   * The stream entry's id (`<ms>-<seq>`), where the source has one: what
   * the history recorder keys an attempt by, so that a batch read twice is
   * recorded once.
   */
  id?: string;
}

/** One read of every task's event stream, as the change feed takes it. */
export interface EventBatch {
  /** The entries read, each stream's in order. */
  events: TaskEvent[];
  /**
   * Task → the id of its last entry in `events` (what to save once they are
   * taken); for a task followed from the tail's start with no entry yet,
   * that start, once.
   */
  positions: Map<string, string>;
  /** Every task whose stream was read. */
  tasks: readonly string[];
  /**
   * Tasks whose stream dropped entries after the id the read started from
   * (taskora's cap trimmed them before they were read): what they said must
   * be read again in full.
   */
  trimmed: string[];
  /**
   * Whether the read reached the end of every stream it read: each entry
   * written before it is in this batch or an earlier one.
   */
  caughtUp: boolean;
}

/** Options of {@link TaskSource.listTasks}. */
export interface ListTasksOptions {
  /** Rediscover the tasks now rather than answer the cached list (before an all-task action). */
  fresh?: boolean;
}

/** Options of {@link TaskSource.retryJob}. */
export interface RetryOptions {
  /** The states the job may be retried from (default: failed and cancelled). */
  from?: readonly RetryableState[];
  /**
   * When the key is given (even undefined), replaces the job's data in the
   * same atomic step (a job refused keeps its data); `INVALID_STATE` where
   * the store's API cannot replace it.
   */
  data?: unknown;
}

/**
 * How the board shows a failed job's error (redacted): the dead-letter
 * methods make each group from the error as shown, so no value redaction
 * hides decides a group. Absent: the error as stored.
 */
export type ShownError = (message: string) => string;

/** Which failed jobs are listed or sent back: of a task, of an error group. */
export interface FailedScope {
  /** One task's; every task's when absent. */
  task?: string;
  /** One error group's (a {@link DeadLetterGroup.pattern}); every failed job's when absent. */
  pattern?: string;
  /** How the errors the `pattern` was made from are shown. */
  shown?: ShownError;
}

/** Options of {@link TaskSource.cleanJobs}. */
export interface CleanOptions {
  /** Count the jobs the clean would remove, removing none. */
  dryRun?: boolean;
}

/**
 * What a task's event stream is asked by {@link TaskSource.readStreams},
 * each read inside the store (bounded, one batch for many tasks):
 *
 * - `activity`: for each of `tasks`, when a worker last took and last
 *   finished one of its jobs, from the newest `depth` entries;
 * - `reruns`: for each of `tasks`, how many times taskora's stall check
 *   put one of its jobs back to waiting (`stalled` entries with `action`
 *   `recovered`) at or after `since` (ms), among the newest 1,000 entries
 *   (`RERUN_SCAN`); 0 for an unknown task;
 * - `drain`: what `task`'s stream says since `since` (ms): its newest
 *   entries down to that time, at most `depth` (see `contract/queue_eta.ts`);
 * - `attempts`: job `jobId`'s failed attempts (see `attempt_history.ts` for
 *   the bound and when it is complete); null when no task has the job.
 *
 * An unknown task reads as an empty stream.
 */
export type StreamQuery =
  | { kind: "activity"; tasks: readonly string[]; depth: number }
  | { kind: "reruns"; tasks: readonly string[]; since: number }
  | { kind: "drain"; task: string; since: number; depth: number }
  | { kind: "attempts"; jobId: string };

/** What each kind of {@link StreamQuery} answers. */
export interface StreamAnswers {
  /** Task → its last take and finish. */
  activity: Map<string, TaskActivity>;
  /** Task → its re-runs by the stall check. */
  reruns: Map<string, number>;
  /** The task's drain since the time asked. */
  drain: DrainScan;
  /** The job's failed attempts, or null. */
  attempts: AttemptHistory | null;
}

/**
 * What {@link TaskSource.readLocks} is asked about the locks taskora keeps:
 *
 * - `jobs`: the locks of `jobIds` (the active jobs of the page on screen, at
 *   most `MAX_LIVENESS_IDS`: O(ids), never all active jobs) and a sample of
 *   `task`'s stalled set; `known: false` with the reason when the source
 *   cannot see them;
 * - `active`: how many of `task`'s jobs are active and the locks of the
 *   `limit` claimed last, O(limit) (no locks where the source cannot see them);
 * - `scheduler`: who holds the scheduler leader lock and for how long;
 *   `known: false` with the reason when unseen;
 * - `migration`: taskora's migration lock while it halts writers, else
 *   null. While it is held the board refuses every mutation (503
 *   `MIGRATION_IN_PROGRESS`); a source with no such lock answers null.
 */
export type LockQuery =
  | { kind: "jobs"; task: string; jobIds: readonly string[] }
  | { kind: "active"; task: string; limit: number }
  | { kind: "scheduler" }
  | { kind: "migration" };

/** What each kind of {@link LockQuery} answers. */
export interface LockAnswers {
  /** The named jobs' locks and the task's stalled jobs. */
  jobs: TaskLiveness;
  /** The task's active count and its newest claimed jobs' locks. */
  active: ActiveLocks;
  /** The scheduler leader lock. */
  scheduler: SchedulerLeadership;
  /** The migration lock, or null. */
  migration: MigrationLock | null;
}

/**
 * What {@link TaskSource.readBacklog} is asked:
 *
 * - `dueAfter`: for each of `tasks`, its delayed and retrying jobs due after
 *   `at` (ms): one O(log n) count per task, one batch;
 * - `kinds`: `task`'s effective backlog by kind at `now` (waiting,
 *   prioritized, due delayed, held by a concurrency key; see
 *   `contract/scaling.ts`), bounded; `heldScan`: queued jobs of each queue
 *   looked at for a held key (default 1,000). Null from a source that cannot
 *   tell the kinds apart: the scaling signal then counts the waiting jobs only.
 */
export type BacklogQuery =
  | { kind: "dueAfter"; tasks: readonly string[]; at: number }
  | { kind: "kinds"; task: string; now: number; heldScan?: number };

/** What each kind of {@link BacklogQuery} answers. */
export interface BacklogAnswers {
  /** Task → its jobs due after the time asked. */
  dueAfter: Map<string, number>;
  /** The task's backlog by kind, or null. */
  kinds: BacklogRead | null;
}

/**
 * The port between the board and a task system, grouped by resource: tasks
 * and their counts, jobs, schedules, workflows, dead letters, throughput,
 * events, locks and backlog, and the source's lifecycle.
 *
 * Every method that reads across tasks does it in a constant number of round
 * trips; none scans the whole store per call. Every method naming one task
 * rejects with `TASK_NOT_FOUND` when the source does not know it, and an
 * argument it does not take with `INVALID_PARAM` naming it: the port
 * decides, the routes do not check first. `checkedSource` (`checked.ts`)
 * gives those refusals once, around every source the board is given, so an
 * adapter answers an unknown task as an empty one and checks nothing itself.
 */
export interface TaskSource {
  // Tasks: their names, counts, queue heads and figures.

  /**
   * Names of every task the store knows, sorted. Served from a cache
   * refreshed in the background; `fresh` rediscovers them now.
   */
  listTasks(options?: ListTasksOptions): Promise<string[]>;
  /**
   * Counts per state for each named task, in one batch of O(1) reads per
   * task. The split of a task's delayed set into `delayed` and `retrying`
   * may be kept rather than read (see {@link TaskSource.retryingAsOf}).
   */
  getStats(tasks: string[]): Promise<Map<string, QueueStats>>;
  /**
   * For each named task, since when its `retrying` figure (and so its
   * `delayed` one) is exact, ms: the current time when it is, an earlier
   * time when it is as of then, null when it was never counted. No store
   * read.
   */
  retryingAsOf(tasks: string[]): Map<string, number | null>;
  /**
   * Whether someone looks at the board now (a live subscriber, or a
   * request lately): the board's own reads on a timer that serve only
   * people (the backlog sampler's, when the live state is stale) run only
   * then. Sources whose reads cost a store nothing leave it out (always).
   */
  readonly watched?: boolean;
  /**
   * For each named task, its counts, its {@link QueueHeads} (the job waiting
   * longest, the tail of the active list, the head of the delayed set: O(1)
   * per task, plus O(log N) for the sets; nulls for a task the store does
   * not know) and its stalled jobs, in one batch: what a view of every task
   * reads, in as few store commands as the source can.
   */
  getQueueSnapshots(tasks: string[], kept?: KeptParts): Promise<Map<string, QueueSnapshot>>;
  /** Key count and memory of one task. */
  getTaskStorage(task: string): Promise<TaskStorage>;
  /**
   * The times of the task's newest `limit` finished jobs, completed and
   * failed together, newest first; with `since` (ms), only those that
   * finished at or after it. Reads from the newest end of the two sets,
   * at most `limit` of each, never the whole sets. `TASK_NOT_FOUND` for an
   * unknown task.
   */
  getFinishedTimings(task: string, limit: number, since?: number): Promise<FinishedTiming[]>;
  /** Task-version spread of the jobs that have yet to run. */
  getVersionDistribution(task: string): Promise<VersionDistribution>;
  /**
   * What the taskora App declares for a task (version, since, config,
   * schedules in code); null when the source has no App to ask, and
   * `TASK_NOT_FOUND` for a task the App does not know.
   */
  getTaskDefinition?(task: string): Promise<TaskDefinition | null>;
  /** Version, memory and uptime of the store. */
  getStoreInfo(): Promise<StoreInfo>;

  // Jobs: pages, search, one job, and the actions on them.

  /**
   * One page of a task's jobs in a state. Queues come in the order workers take
   * them (the wait list, then the prioritized set by priority), delayed and
   * retrying jobs by run time, finished jobs newest first.
   */
  listJobs(task: string, state: JobState, offset: number, limit: number): Promise<JobPage>;
  /**
   * One slice of a search of a task's jobs in a state, in the order
   * {@link TaskSource.listJobs} gives them: at most `sliceJobsOf(filter)`
   * jobs looked at (1,000, or 250 when a field of each is read; fewer once
   * a byte budget is spent, or, without a payload condition, once `want`
   * candidates are found), in one store call, from `position` (null: the
   * start). With a payload condition the slice never stops at `want`: a
   * source may prefilter on the stored, unredacted text, so where a slice
   * ends must not depend on which jobs passed; the caller stops at a
   * candidate's {@link SearchCandidate.after} instead. A time
   * range on a finished state narrows the scanned range itself (O(log n));
   * see {@link JobFilter}. Sources that cannot search leave it out.
   */
  searchJobs?(
    task: string,
    state: JobState,
    filter: JobFilter,
    position: SearchPosition | null,
    want: number,
  ): Promise<SearchSlice>;
  /**
   * A job by id, looked up across every task, with its newest
   * {@link JOB_DETAIL_LOGS} log entries; null when no task has it.
   */
  getJob(jobId: string): Promise<JobDetail | null>;
  /**
   * The task holding job `jobId`, or null when none does: for a permission
   * that depends on the task, before the job is read or acted on. One O(1)
   * probe per task, no job read. Sources that leave it out are asked
   * {@link getJob}.
   */
  findJobTask?(jobId: string): Promise<string | null>;
  /**
   * The state now of each named job, in order (null for one gone): what the
   * board shows of the schedule runs it dispatched (kept in its `BoardStore`).
   * One batch; a source may trust a finished state it read within the last
   * minute, and says when it read it. Sources that leave it out show none of
   * the board's runs.
   */
  getJobStates?(jobs: readonly JobRef[]): Promise<JobStateRead[]>;
  /**
   * Entries `offset` to `offset + limit - 1` of a job's log (counted from
   * the oldest, so a page stays put while the job logs more), and how many
   * there are; null when no task has the job. Costs O(limit), not O(log).
   */
  getJobLogs(jobId: string, offset: number, limit: number): Promise<LogPage | null>;
  /**
   * Jobs whose id starts with `prefix`, at most `limit`, sorted by id, each
   * with its state now (a job gone since is left out): how the short ids
   * the UI shows are found. With `accept`, only jobs of the tasks it takes
   * (asked once per task that has a match, before the limit is counted).
   * Bounded by design: the memory source looks at every job it holds; the
   * Redis source only at the ids it has recently served (a prefix search of
   * the keyspace is a full SCAN, see `redis/recent_job_ids.ts`).
   */
  findJobsByIdPrefix(prefix: string, limit: number, accept?: TaskFilter): Promise<JobMatch[]>;
  /**
   * What holds job `jobId` back (see `contract/diagnosis.ts`): O(1) or
   * bounded reads of its hash, queue position, flow control keys and its
   * task's newest stream entries, never a SCAN; null when no task has it.
   * Sources that cannot read them leave it out.
   */
  getJobHolds?(jobId: string): Promise<JobHolds | null>;
  /**
   * What the history recorder keeps of each ending job (see
   * `history/recorder.ts`), in order, null for one gone: its recorded
   * fields and the sizes of its input and result (and those themselves
   * when `payloads`), at most one read per job. Sources whose events carry
   * no stream ids leave it out: their boards keep no history.
   *
   * @internal the history's types are the board's own, not yet public.
   */
  readJobFields?(
    jobs: readonly RecordedJobRef[],
    payloads: boolean,
  ): Promise<(JobFields | null)[]>;
  /**
   * Sends a failed (or cancelled) job back to waiting, attempt 1, as a fresh
   * dispatch, its data replaced when `options` has `data`.
   * `JOB_NOT_FOUND` for an unknown id; `INVALID_STATE` (naming the state)
   * when the job is in none of the `from` states.
   */
  retryJob(jobId: string, options?: RetryOptions): Promise<JobActionResult>;
  /**
   * Dispatches a new job of the job's task with the job's data, as the task
   * itself would (with the App: `task.dispatch(data)`). `JOB_NOT_FOUND` for
   * an unknown id; `VERSION_UNKNOWN` when no job says the task's version.
   */
  rerunJob(jobId: string): Promise<RerunResult>;
  /**
   * Cancels a waiting, delayed or retrying job at once, or signals an active
   * one's worker; `INVALID_STATE` for a finished job.
   */
  cancelJob(jobId: string, reason?: string): Promise<JobActionResult>;
  /**
   * Dispatches a new job of `task` through the taskora App, its data checked
   * against the task's input schema first (`INVALID_PARAM`, `param: "data"`);
   * with an `idempotencyKey`, a dispatch whose job exists already makes none
   * and answers it (`created: false`). Only a source with the App has it.
   */
  dispatchJob?(
    task: string,
    request: DispatchRequest,
    idempotencyKey?: string,
  ): Promise<DispatchResult>;
  /**
   * Removes finished jobs of a state that finished more than `olderThanMs`
   * ago, in batches; with `dryRun`, answers how many it would remove now,
   * removing none.
   */
  cleanJobs(
    task: string,
    state: FinishedState,
    olderThanMs: number,
    options?: CleanOptions,
  ): Promise<{ removed: number }>;
  /**
   * How many jobs `action` would act on now: the named ones in a state it
   * takes, or the jobs of the selected state (its count). A filter on a
   * state is the board's to apply (through {@link TaskSource.searchJobs}).
   * Sources that cannot act on many jobs leave this and
   * {@link TaskSource.bulkStep} out.
   */
  countBulk?(action: BulkAction, selector: BulkIdSelector | BulkStateSelector): Promise<number>;
  /**
   * One atomic step of a bulk action on jobs of `task` (at most
   * `BULK_BATCH`): each job's state is checked in the same step, so a job
   * a worker moved on is skipped, never acted on. `reason`: a cancel's.
   */
  bulkStep?(
    task: string,
    action: BulkAction,
    step: BulkStep,
    reason?: string,
  ): Promise<BulkStepResult>;

  // Schedules.

  /**
   * Every schedule, sorted by name. A source may answer a schedule unchanged
   * since its last list as the record it answered then (the Redis source
   * does: the board writes what it shows of a record once): callers read the
   * records, never change them.
   */
  listSchedules(): Promise<ScheduleRecord[]>;
  /**
   * Dispatches one run of a schedule now; its next run does not move. With
   * an `idempotencyKey` (1 to 200 printable ASCII characters) the job id is
   * derived from the schedule and the key, and a trigger whose job exists
   * already dispatches nothing and returns that job (`created: false`), so
   * an operator's retry after an unconfirmed answer never makes a second one.
   */
  triggerSchedule(name: string, idempotencyKey?: string): Promise<TriggerResult>;
  /**
   * Changes a schedule; the next run is recomputed unless it is paused.
   * `paused: true` pauses it (no next run), `paused: false` resumes it, its
   * next run computed from now. `SCHEDULE_NOT_FOUND` for an unknown name.
   */
  updateSchedule(name: string, patch: SchedulePatch): Promise<ScheduleRecord>;
  /** Deletes a schedule. */
  removeSchedule(name: string): Promise<void>;

  // Workflows.

  /** Workflows (only those in `state`, when given), newest first. */
  listWorkflows(offset: number, limit: number, state?: WorkflowState): Promise<WorkflowPage>;
  /** A workflow by id, or null. */
  getWorkflow(id: string): Promise<WorkflowDetail | null>;
  /**
   * Cancels a running workflow: pending node jobs become cancelled, active
   * ones are signalled, finished ones keep their state. `INVALID_STATE` for a
   * finished workflow.
   */
  cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult>;

  // Dead letters: failed jobs, grouped by error.

  /**
   * Failed jobs of `scope` (every task's, or one's; with a `pattern`, only
   * that error group's, of the errors as `scope.shown`), most recently failed first.
   */
  listDeadLetters(offset: number, limit: number, scope?: FailedScope): Promise<JobPage>;
  /** Failed jobs grouped by their error as `shown`, most frequent first. */
  groupDeadLetters(task?: string, shown?: ShownError): Promise<DeadLetterGroup[]>;
  /**
   * Sends the failed jobs of `scope` (every task's, rediscovered first, or
   * one's; with a `pattern`, only that error group's, read afresh) back to
   * waiting, in atomic batches of 100. `beforeBatch` is asked before each
   * round of batches; when it answers false the retry stops there and
   * answers what it has retried.
   */
  retryAllFailed(scope?: FailedScope, beforeBatch?: BeforeBatch): Promise<{ retried: number }>;

  // Throughput.

  /** Finished-job counts per bucket, oldest first. */
  getThroughput(query?: ThroughputQuery): Promise<ThroughputBucket[]>;
  /**
   * Each named task's own finished-job counts per bucket (as
   * {@link TaskSource.getThroughput} with `task`), in one batch; zeros for
   * a task the store does not know. A source may leave out what `kept`
   * keeps.
   */
  getThroughputByTask(
    tasks: string[],
    query?: Omit<ThroughputQuery, "task">,
    kept?: KeptMinutes,
  ): Promise<Map<string, ThroughputBucket[]>>;

  // Events: the streams taskora writes every job transition to.

  /**
   * Calls `listener` for every event written to any task's stream from now
   * on (tasks that appear later included), in stream order per task; returns
   * the unsubscribe function. Sources share one reader between all
   * listeners: the first subscription starts it, the last unsubscribe stops
   * it. Listeners must not throw.
   */
  subscribe(listener: (event: TaskEvent) => void): () => void;
  /**
   * Reads every task's event stream from the ids `from` gives (a task
   * without one: from when the tail started), a batch at a time: `take`
   * gets each read's entries and the next read waits until it settles.
   * Runs until `signal` aborts, across dropped connections. Sources whose
   * stream entries have no ids leave it out: the change feed then takes
   * {@link subscribe}'s events from when it started.
   */
  tailEvents?(
    from: ReadonlyMap<string, string>,
    take: (batch: EventBatch) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * What the event streams say, as {@link StreamQuery} asks (a task's
   * activity, re-runs or drain, a job's attempts), read inside the store.
   * Sources with no event stream leave it out: a queue's rate then comes
   * from the per-minute counters, and a job's attempts from its hash.
   */
  readStreams?<R extends StreamQuery>(read: R): Promise<StreamAnswers[R["kind"]]>;

  // Locks and backlog: what taskora's workers and scheduler hold.

  /**
   * The locks taskora keeps, as {@link LockQuery} asks (named jobs' locks and
   * stalled jobs, the newest active jobs' locks, the scheduler's leader, the
   * migration lock). Sources that read no lock leave it out.
   */
  readLocks?<R extends LockQuery>(read: R): Promise<LockAnswers[R["kind"]]>;
  /**
   * The backlog, as {@link BacklogQuery} asks (jobs due later, the backlog
   * by kind). Sources that keep backlog samples offer it; without it every
   * delayed and retrying job counts as backlog.
   */
  readBacklog?<R extends BacklogQuery>(read: R): Promise<BacklogAnswers[R["kind"]]>;
  /**
   * One bounded step of a scan for the task's mechanism keys (concurrency
   * keys, throttles, debounces, dedup keys, collect buffers) from `cursor`
   * (null: the start), with what each holds: a few SCAN calls of the
   * keyspace, never all of it (see `contract/mechanics.ts`); stops early
   * once `signal` aborts. Sources that keep no such keys leave it out.
   */
  scanMechanics?(task: string, cursor: string | null, signal?: AbortSignal): Promise<MechanicsStep>;

  // Lifecycle.

  /** Stops background work and releases connections the source owns. */
  close(): Promise<void>;
}
