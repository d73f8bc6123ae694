/**
 * Liveness: the only evidence of running workers taskora leaves in Redis.
 * taskora keeps no worker registry; what it keeps is a lock per active job
 * (`<job>:lock`, a random token per attempt, renewed by its worker while it
 * runs) and the scheduler's leader lock (`schedules:lock`, the leading
 * scheduler's random token). An active job without a lock is stalled: no
 * worker runs it. Times left are as of `readAt`: a reader counts down from
 * there.
 *
 * @module
 */

/** The lock of one job, as read. */
export interface JobLock {
  /** The job. */
  id: string;
  /** The lock's token (a random id of the attempt, not a worker name); null when there is no lock. */
  token: string | null;
  /** Milliseconds left on the lock when read; null when there is no lock, or it has no expiry. */
  ttlMs: number | null;
  /**
   * Whether the job is in the task's `:stalled` set: a candidate of the next
   * stall check (every active job of the last check whose lock was not
   * renewed since). Not a stall: a running job is one between its lock's
   * renewals, and taskora 0.5.0 leaves a job that finished in the set.
   */
  inStalledSet: boolean;
}

/**
 * How many of a task's active jobs hold no lock, among the
 * {@link STALLED_SCAN} claimed longest ago: no worker runs them (the worker
 * that claimed them is gone, or blocked past its lock). A live worker's
 * stall check moves them back to waiting, or fails them; with no worker
 * left they stay active.
 */
export interface StalledCount {
  /** Those found without a lock. */
  total: number;
  /** How many active jobs were looked at: all of them, or the {@link STALLED_SCAN} oldest. */
  checked: number;
}

/** The active jobs without a lock ({@link StalledCount}), named. */
export interface StalledJobs extends StalledCount {
  /** The jobs, the one claimed longest ago first. */
  ids: string[];
}

/**
 * Most active jobs one read looks at for locks, those claimed longest ago:
 * a job whose worker died stays where it was while later claims are pushed
 * in front of it, so the oldest end is where stalled jobs gather.
 */
export const STALLED_SCAN = 100;

/** Most job ids one liveness read takes (one page of jobs). */
export const MAX_LIVENESS_IDS = 100;

/** The scheduler leader lock. */
export interface SchedulerLeader {
  /** The leading scheduler's token (a random id per `app.start()`, not a host name). */
  token: string;
  /** Milliseconds until the lock expires unless renewed; null when it has no expiry. */
  ttlMs: number | null;
}

/** What a source that cannot read liveness answers instead, and why. */
export interface LivenessUnknown {
  /** Always false. */
  known: false;
  /** Why the source cannot tell, for the operator. */
  reason: string;
}

/** A task's liveness, as a source reads it. */
export type TaskLiveness =
  | { known: true; locks: JobLock[]; stalled: StalledJobs }
  | LivenessUnknown;

/** Who leads the schedulers, as a source reads it (`leader` null: no scheduler holds the lock). */
export type SchedulerLeadership =
  | { known: true; leader: SchedulerLeader | null }
  | LivenessUnknown;

/**
 * The answer of `GET /tasks/{task}/liveness?ids=a,b`: the locks of the
 * named (active) jobs, in the order asked, and the task's stalled jobs.
 */
export type TaskLivenessResponse = TaskLiveness & {
  /** The task. */
  task: string;
  /** When it was read (ms, the board's clock). */
  readAt: number;
};

/** The answer of `GET /scheduler`: the scheduler leader lock. */
export type SchedulerLeadershipResponse = SchedulerLeadership & {
  /** When it was read (ms, the board's clock). */
  readAt: number;
};
