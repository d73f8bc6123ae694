/**
 * A task's health at a glance, from its counts, its last minutes of
 * throughput and the heads of its queues (the job waiting longest, the job
 * active longest, the delayed job due first).
 *
 * @module
 */

import type { QueueStats } from "./states.ts";
import type { ThroughputBucket } from "./throughput.ts";
import { countOf } from "./plural.ts";

/**
 * The ends of a task's queues that tell whether work moves: the job waiting
 * longest, the job active longest and the delayed (or retrying) job due first.
 */
export interface QueueHeads {
  /**
   * The job that has waited longest to run, of the {@link OLDEST_WAITING_SCAN}
   * at each end of the wait list and of the prioritized set, with since when
   * it waits (ms, see {@link queuedSince}).
   */
  oldestWaiting: { id: string; since: number } | null;
  /** The job claimed longest ago and still active, with when its attempt started (ms). */
  oldestActive: { id: string; since: number } | null;
  /** The delayed or retrying job that runs next, with its run-at time (ms). */
  nextDue: { id: string; at: number } | null;
}

/**
 * Jobs read at each end of the wait list and of the prioritized set for the
 * one waiting longest (the whole of each when it holds at most twice as
 * many): taskora pushes a job back to the list's head (a concurrency-key
 * block, a nack, a stall recovery) with its old `ts`, and a low-priority job
 * starves at the far end of the set, so neither next-to-run end alone finds
 * it. Beyond the bound a job waiting longer in the middle of a long queue is
 * missed: the age errs short there.
 */
export const OLDEST_WAITING_SCAN = 16;

/** How a task is doing. */
export interface TaskHealth {
  /** The verdict. */
  status: "healthy" | "warning" | "critical" | "idle";
  /** Why, in words an operator reads during an incident. */
  reason: string;
  /** Share of failed among finished jobs in the window (0–1), null when nothing finished. */
  failureRate: number | null;
  /**
   * Jobs wait (or a delayed or retrying job is overdue by as long: taskora
   * promotes due jobs only when a worker asks for one) and no worker took
   * one for longer than `health.maxIdleMs`, while none runs under a live lock
   * (then the status is critical): see {@link idleFor} for how long none was taken.
   */
  noProgress: boolean;
}

/** Minutes of throughput the health looks at. */
export const HEALTH_WINDOW_MINUTES = 15;

/** A job active longer than this is likely stuck (or its worker is gone). */
export const ACTIVE_TOO_LONG_MS = 60 * 60_000;

/**
 * A delayed job whose run-at passed this long ago has not been promoted:
 * workers promote due jobs each time they poll, so none is polling.
 */
export const OVERDUE_AFTER_MS = 5 * 60_000;

/**
 * Default of the `health.maxWaitMs` option: a task whose oldest waiting job
 * has waited longer is not healthy (its workers fall behind, or none run).
 */
export const DEFAULT_MAX_WAIT_MS = 10 * 60_000;

/**
 * Default of the `health.maxIdleMs` option: a task with waiting jobs none
 * of which a worker took for longer is critical (`noProgress`).
 */
export const DEFAULT_MAX_IDLE_MS = 5 * 60_000;

/** What the newest entries of a task's event stream say of its last take (see `workers.ts`). */
export interface TakeEvidence {
  /** When a worker last took a job, ms; null when none of the entries read is a take. */
  lastTakenAt: number | null;
  /** When the oldest entry read was written, ms; null for an empty stream. */
  coveredSince: number | null;
}

/**
 * How long no job was taken at `now`, at least, ms: since the last take
 * read, or, with none among the entries read, since the oldest of them
 * (the last take was before it); null with nothing read.
 */
export function idleFor(evidence: TakeEvidence | undefined, now: number): number | null {
  const since = lastTakeBound(evidence);
  return since === null ? null : Math.max(0, now - since);
}

/**
 * When a worker last took a job, or the earliest it can have been (the
 * oldest entry read, when no take was among them); null with nothing read.
 */
export function lastTakeBound(evidence: TakeEvidence | undefined): number | null {
  return evidence?.lastTakenAt ?? evidence?.coveredSince ?? null;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The fields of a job hash that say since when it waits. */
export interface QueuedFields {
  /** Dispatch time (`ts`), ms; taskora sets it anew when it retries a failed job. */
  createdAt: number;
  /** The dispatch delay (`delay`), ms, 0 when none. */
  delay: number;
  /** When its last attempt started (`processedOn`), or null. */
  processedAt: number | null;
}

/**
 * Since when a waiting job waits, ms, from what its hash keeps: a job that
 * never ran since its dispatch waits from its run-at (`ts + delay`); one that
 * ran and is back (a retry, a stall) from the later of its dispatch and its
 * last attempt's start. taskora keeps no time of the retry's promotion, so
 * for a retried job this counts its last run and backoff as waiting too: the
 * age errs long, never short.
 */
export function queuedSince({ createdAt, delay, processedAt }: QueuedFields): number {
  return processedAt === null ? createdAt + delay : Math.max(createdAt, processedAt);
}

/**
 * A span in the unit an operator thinks in: `45 s`, `12 min`, `3 h`, `2 d`;
 * under a second in ms (`500 ms`), which "0 s" would call none.
 */
export function roughDuration(ms: number): string {
  if (ms <= 0) return "0 s";
  if (ms < 1000) return `${Math.max(1, Math.floor(ms))} ms`;
  if (ms < MINUTE) return `${Math.floor(ms / 1000)} s`;
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < 48 * HOUR) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / (24 * HOUR))} d`;
}

/** The first 8 characters of an id, as the UI shows it (and its search finds it). */
function short(id: string): string {
  return id.slice(0, 8);
}

/** How long none of a task's jobs was taken, and what says whether its workers are busy. */
export interface IdleEvidence {
  /** How long no job was taken, ms (see {@link idleFor}); null when unknown. */
  ms: number | null;
  /** Longer than this with jobs waiting, no worker takes them (`health.maxIdleMs`). */
  maxMs: number;
  /**
   * Of the task's newest claimed active jobs, how many hold a live lock (a
   * worker runs each); read only when the idle time is over `maxMs`.
   */
  running?: number;
}

/**
 * Judges a task at `now` (ms). Critical when at least half of recent jobs
 * failed, when jobs wait and none was taken for longer than `idle.maxMs`
 * (`idle.ms`: how long none was, see {@link idleFor}; null when unknown)
 * while no job runs under a live lock, or work waits with nothing running
 * and nothing finishing.
 * Warning, in this order: 10 % failures; jobs waiting that long while every
 * worker is busy (`idle.running` live locks); a job waiting longer than
 * `maxWaitMs` (default {@link DEFAULT_MAX_WAIT_MS}); a delayed job overdue by
 * {@link OVERDUE_AFTER_MS} (nothing is promoting due jobs); a job active for
 * over {@link ACTIVE_TOO_LONG_MS}; jobs retrying. Idle when there is nothing
 * to do; healthy otherwise.
 */
export function taskHealth(
  stats: QueueStats,
  recent: readonly ThroughputBucket[],
  heads: QueueHeads,
  now: number,
  maxWaitMs: number = DEFAULT_MAX_WAIT_MS,
  idle: IdleEvidence = { ms: null, maxMs: DEFAULT_MAX_IDLE_MS },
): TaskHealth {
  let completed = 0;
  let failed = 0;
  for (const bucket of recent) {
    completed += bucket.completed;
    failed += bucket.failed;
  }
  const finished = completed + failed;
  const failureRate = finished === 0 ? null : failed / finished;
  const percent = failureRate === null ? "" : `${Math.round(failureRate * 100)} %`;
  const window = `the last ${HEALTH_WINDOW_MINUTES} min`;
  const { nextDue, oldestActive, oldestWaiting } = heads;
  // taskora promotes a due delayed or retrying job only when a worker asks for work: one
  // overdue by the idle limit waits for a worker as a waiting job does.
  const dueTooLong = nextDue !== null && now - nextDue.at > idle.maxMs;
  const work = stats.waiting > 0
    ? `${stats.waiting} waiting`
    : `job ${short(nextDue?.id ?? "")} due ${roughDuration(now - (nextDue?.at ?? now))} ago`;
  const untaken = (stats.waiting > 0 || dueTooLong) && idle.ms !== null && idle.ms > idle.maxMs;
  // Jobs running under live locks are workers at work: busy, not gone.
  const running = untaken ? idle.running ?? 0 : 0;
  // A fact of its own, whichever reason the verdict gives.
  const noProgress = untaken && running === 0;
  const verdict = (status: TaskHealth["status"], reason: string): TaskHealth => ({
    status,
    reason,
    failureRate,
    noProgress,
  });

  if (failureRate !== null && failureRate >= 0.5) {
    return verdict("critical", `${percent} of jobs failed in ${window}`);
  }
  if (noProgress) {
    return verdict(
      "critical",
      `${work}, none taken for ${roughDuration(idle.ms!)} (over ${
        roughDuration(idle.maxMs)
      }): no worker is taking jobs`,
    );
  }
  if (stats.waiting > 0 && stats.active === 0 && finished === 0) {
    return verdict("critical", `${stats.waiting} waiting, none running or finished in ${window}`);
  }
  if (failureRate !== null && failureRate >= 0.1) {
    return verdict("warning", `${percent} of jobs failed in ${window}`);
  }
  if (running > 0) {
    return verdict(
      "warning",
      `${work}, none taken for ${roughDuration(idle.ms!)} (over ${
        roughDuration(idle.maxMs)
      }): workers are busy, ${countOf(running, "job")} running under a live lock (or a ` +
        "singleton or concurrency key holds the rest)",
    );
  }
  if (oldestWaiting && now - oldestWaiting.since > maxWaitMs) {
    return verdict(
      "warning",
      `job ${short(oldestWaiting.id)} waiting for ${
        roughDuration(now - oldestWaiting.since)
      } (over ${roughDuration(maxWaitMs)})`,
    );
  }
  if (nextDue && now - nextDue.at > OVERDUE_AFTER_MS) {
    return verdict(
      "warning",
      `job ${short(nextDue.id)} overdue by ${
        roughDuration(now - nextDue.at)
      }: no worker is picking up due jobs`,
    );
  }
  if (oldestActive && now - oldestActive.since > ACTIVE_TOO_LONG_MS) {
    return verdict(
      "warning",
      `job ${short(oldestActive.id)} active for ${roughDuration(now - oldestActive.since)}`,
    );
  }
  if (stats.retrying > 0) return verdict("warning", `${countOf(stats.retrying, "job")} retrying`);
  const pending = stats.waiting + stats.active + stats.delayed + stats.retrying;
  if (pending === 0 && finished === 0) {
    return verdict("idle", "nothing queued or finished recently");
  }
  if (failureRate === null) return verdict("healthy", `nothing finished in ${window}`);
  return verdict(
    "healthy",
    failed === 0
      ? `no failures in ${window}`
      : `${failed} of ${countOf(finished, "job")} failed in ${window}`,
  );
}
