/**
 * Liveness: the only evidence of running workers taskora leaves in Redis.
 * taskora keeps no worker registry; what it keeps is a lock per active job
 * (`<job>:lock`, a random token per attempt, renewed by its worker while it
 * runs), each task's stalled set (the active jobs of the last stall check
 * whose lock was not renewed since), and the scheduler's leader lock
 * (`schedules:lock`, the leading scheduler's random token). Times left are
 * as of `readAt`: a reader counts down from there.
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
  /** Whether the job is in the task's stalled set (not renewed since the last stall check). */
  inStalledSet: boolean;
}

/** Members of a task's stalled set. */
export interface StalledSet {
  /** Some members (at most {@link STALLED_SAMPLE}), sorted. */
  ids: string[];
  /** How many members the set has. */
  total: number;
}

/** Most members of a stalled set one read returns. */
export const STALLED_SAMPLE = 100;

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
  | { known: true; locks: JobLock[]; stalled: StalledSet }
  | LivenessUnknown;

/** Who leads the schedulers, as a source reads it (`leader` null: no scheduler holds the lock). */
export type SchedulerLeadership =
  | { known: true; leader: SchedulerLeader | null }
  | LivenessUnknown;

/**
 * The answer of `GET /tasks/{task}/liveness?ids=a,b`: the locks of the
 * named (active) jobs, in the order asked, and the task's stalled set.
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
