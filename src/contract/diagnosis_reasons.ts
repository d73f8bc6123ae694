/**
 * Turns the facts a source read about one job ({@link JobHolds}) and what
 * the board knows beside them (the App's task definition, taskora's
 * migration lock, the task's completions) into the ordered reasons of a
 * diagnosis. Pure: the same facts give the same words.
 *
 * @module
 */

import {
  DIAGNOSED_STATES,
  DIAGNOSIS_CODES,
  type DiagnosisReason,
  type JobHolds,
  QUEUE_POSITION_LIMIT,
} from "./diagnosis.ts";
import { roughDuration } from "./health.ts";
import type { MigrationLock } from "./migration_lock.ts";
import { type DrainRate, heldByKey, queueWait } from "./queue_eta.ts";
import { countOf } from "./plural.ts";
import type { TaskDefinition } from "./tasks.ts";
import type { TaskActivity } from "./workers.ts";

/** What the board knows beside the job's own facts. */
export interface DiagnosisContext {
  /** When the facts were read (ms). */
  now: number;
  /** The App's definition of the task; null when the board runs with a Redis URL only. */
  definition: TaskDefinition | null;
  /** taskora's migration lock when held, else null. */
  migrationLock: MigrationLock | null;
  /** How fast the task's queue drains: jobs completed or failed while its workers ran. */
  drainRate: DrainRate;
  /** When the task's workers last took a job (its event stream); null when the source cannot read it. */
  activity: TaskActivity | null;
  /** How many of the stream's newest entries `activity` asked for: fewer read is the whole stream. */
  eventDepth: number;
  /** Jobs waiting and none taken for longer than this (ms, `health.maxIdleMs`): no worker takes jobs. */
  maxIdleMs: number;
  /**
   * Whether the user may see the job's keys (concurrency, dedup, collect):
   * taskora's callers derive them from the job's data, so they are shown
   * only to who may read its payloads.
   */
  showKeys: boolean;
}

/** What a key is shown as to a user who may not read the job's payloads. */
export const HIDDEN_KEY = "[hidden: needs payload.read]";

/** The states taskora 0.5.0's `deduplicate.while` names when a dispatch gives none. */
const DEFAULT_DEDUP_WHILE = "by default waiting, delayed or active";

/** Who to embed the board in when only the App knows. */
const WITH_APP = "createBoard(app)";

// taskora moves due delayed and retrying jobs to waiting only inside a worker's dequeue:
// a due job runs when a worker next asks for one, not at its time.
const inTime = (at: number, now: number) =>
  at <= now
    ? `once a worker asks for a job (due ${roughDuration(now - at)} ago: taskora promotes ` +
      "due jobs only then)"
    : `in ${roughDuration(at - now)}`;

const jobLink = (id: string) => `/jobs/${encodeURIComponent(id)}`;
const taskLink = (task: string) => `/tasks/${encodeURIComponent(task)}`;

/**
 * What a pending job's TTL (`expireAt`) does to it: taskora checks it when a
 * worker takes a waiting job and when it promotes a due one, and expires
 * the job then instead of running it.
 */
function expiry(job: JobHolds, expireAt: number, now: number): DiagnosisReason {
  const evidence = { expireAt, runAt: job.runAt };
  if (expireAt <= now) {
    return {
      code: "expires",
      summary: `its TTL ended ${roughDuration(now - expireAt)} ago: it will be expired, never ` +
        "run (taskora expires a job past its TTL when a worker takes or promotes it)",
      evidence,
    };
  }
  if (job.state !== "waiting" && job.runAt !== null && expireAt <= job.runAt) {
    return {
      code: "expires",
      summary: `its TTL ends in ${roughDuration(expireAt - now)}, before it is due in ` +
        `${roughDuration(job.runAt - now)}: it will be expired when promoted, never run`,
      evidence,
    };
  }
  return {
    code: "expires",
    summary: `its TTL ends in ${roughDuration(expireAt - now)}: a worker that has not taken it ` +
      "by then expires it instead of running it",
    evidence,
  };
}

/**
 * The reasons that hold the job, in {@link DIAGNOSIS_CODES} order, and
 * what the board cannot tell. A job in a state that is not pending gets
 * none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { diagnose } from "./diagnosis_reasons.ts";
 * const job = {
 *   id: "j1", task: "email", state: "waiting" as const, attempt: 1, maxAttempts: 1, version: 1,
 *   createdAt: 0, ahead: 412, waiting: 413, runAt: null, dispatchDelayMs: null, concurrency: null,
 *   dedupKey: null, collect: null, debounceReplaced: null,
 *   active: { count: 1, ids: ["j0"], locked: 1 }, expireAt: null, cancelRequested: null,
 *   lock: null,
 * };
 * const context = {
 *   now: 60_000, definition: null, migrationLock: null, showKeys: true,
 *   drainRate: { finished: 1_400, spanMs: 600_000, since: "window" as const },
 *   activity: { lastTakenAt: 55_000, lastFinishedAt: 55_000, scanned: 10, coveredSince: 0 },
 *   eventDepth: 1_000, maxIdleMs: 300_000,
 * };
 * const { reasons } = diagnose(job, context);
 * assert.equal(reasons[0].summary, "412 jobs ahead of it: about 2 min at the last 10 minutes' rate");
 * ```
 */
export function diagnose(
  job: JobHolds,
  context: DiagnosisContext,
): { reasons: DiagnosisReason[]; unknown: string[] } {
  if (!DIAGNOSED_STATES.includes(job.state)) return { reasons: [], unknown: [] };
  const reasons: DiagnosisReason[] = [];
  const unknown: string[] = [];
  const { now, definition } = context;
  const key = (value: string) => context.showKeys ? value : HIDDEN_KEY;
  const pending = job.state !== "active";

  if (context.migrationLock) {
    const lock = context.migrationLock;
    reasons.push({
      code: "migrationLock",
      summary: "taskora's migration lock is held: every worker waits until the migration ends",
      evidence: {
        by: lock.by,
        reason: lock.reason,
        startedAt: lock.startedAt,
        expiresInMs: lock.expiresInMs,
      },
    });
  }

  if (definition === null) {
    unknown.push(
      `whether its version is below the task's since or above the task's version, and whether ` +
        `the task is a singleton: only the App declares them (${WITH_APP})`,
    );
  } else if (!definition.hasHandler) {
    // A contract's version is what this App dispatches with; the workers' own decide.
    unknown.push(
      "whether its version is below the since or above the version of the workers that run " +
        "it, and whether the task is a singleton: this App registers the task as a contract " +
        "only (no handler), so the workers' settings are declared where it is implemented",
    );
  } else if (job.version > definition.version) {
    // taskora's worker nacks a job newer than its task: back to the wait list, unrun.
    reasons.push({
      code: "versionAboveTask",
      summary: `its version ${job.version} is above the task's version in this App ` +
        `(${definition.version}): a worker of that version puts it back without running it; ` +
        `only a worker of version ${job.version} or later runs it`,
      evidence: { version: job.version, taskVersion: definition.version },
      link: taskLink(job.task),
    });
  } else if (job.version < definition.since) {
    reasons.push({
      code: "versionBelowSince",
      summary: `its version ${job.version} is below the task's since (${definition.since}): ` +
        "a worker fails it when it takes it, without running it",
      evidence: { version: job.version, since: definition.since },
      link: taskLink(job.task),
    });
  }

  const { activity } = context;
  if (activity === null) {
    unknown.push("whether workers take its task's jobs: this source reads no event stream");
  }
  const idleFor = activity?.lastTakenAt == null ? null : now - activity.lastTakenAt;
  // No take among the entries read: with the whole stream read, none is kept at all;
  // otherwise the last one was before the oldest entry read, which bounds the idle time.
  const readWhole = activity !== null &&
    (activity.coveredSince === null || activity.scanned < context.eventDepth);
  const idleAtLeast = idleFor === null && activity?.coveredSince != null && !readWhole
    ? now - activity.coveredSince
    : null;
  // A due delayed or retrying job waits for a worker as a waiting one does (see inTime).
  const due = (job.state === "delayed" || job.state === "retrying") && job.runAt !== null &&
    job.runAt <= now;
  const starved = activity !== null && (job.waiting > 0 || due) &&
    (idleFor !== null
      ? idleFor > context.maxIdleMs
      : idleAtLeast !== null
      ? idleAtLeast > context.maxIdleMs
      : true);
  const singletonHeld = pending && definition?.singleton === true && job.active.count > 0;
  const conc = job.concurrency;
  // taskora checks a key's counter only when the job's limit is above 0.
  const keyHeld = pending && conc !== null && conc.limit > 0 && conc.inUse >= conc.limit;
  if (starved && (pending || job.lock?.token == null)) {
    const waiting = job.waiting > 0
      ? `${countOf(job.waiting, "job")} ${job.waiting === 1 ? "waits" : "wait"}`
      : `it has been due for ${roughDuration(now - job.runAt!)}`;
    const untaken = idleFor !== null
      ? `for ${roughDuration(idleFor)}`
      : idleAtLeast !== null
      ? `for ${roughDuration(idleAtLeast)} at least`
      : `in the newest ${countOf(activity.scanned, "event")} of its stream`;
    const evidence = {
      lastTakenAt: activity.lastTakenAt,
      waiting: job.waiting,
      eventsScanned: activity.scanned,
      eventsSince: activity.coveredSince,
    };
    if (job.active.locked === 0) {
      reasons.push({
        code: "noWorker",
        summary: `no worker took a job of ${job.task} ${untaken}, while ${waiting}`,
        evidence,
        link: taskLink(job.task),
      });
    } else if (pending && !singletonHeld && !keyHeld) {
      // A live lock is a worker running a job: its workers are there, every slot taken
      // (a singleton or a full key says so itself below).
      const { locked } = job.active;
      reasons.push({
        code: "workersBusy",
        summary: `every worker of ${job.task} is busy: ${countOf(locked, "job")} ` +
          `${locked === 1 ? "runs" : "run"} under a live lock, and none was taken ${untaken} ` +
          `while ${waiting}`,
        evidence: { ...evidence, running: locked, active: job.active.count },
        link: taskLink(job.task),
      });
    }
  }

  if (singletonHeld) {
    const [running] = job.active.ids;
    reasons.push({
      code: "singleton",
      summary:
        `${job.task} is a singleton and job ${running} runs: no other job starts until it ends`,
      evidence: { running: job.active.ids },
      link: jobLink(running),
    });
  }

  if (keyHeld && conc) {
    // Which jobs share the key tells what their data have in common: shown with the key only.
    const holders = context.showKeys ? conc.holders : [];
    const usedBy = holders.length > 0 ? `, used by ${holders.join(", ")}` : "";
    reasons.push({
      code: "concurrencyKey",
      summary: `its concurrency key is at its limit: ${conc.inUse} of ${conc.limit}${usedBy}`,
      evidence: {
        key: key(conc.key),
        inUse: conc.inUse,
        limit: conc.limit,
        holders: context.showKeys ? holders : null,
      },
      ...(holders.length > 0 ? { link: jobLink(holders[0]) } : {}),
    });
  }

  if (job.state === "waiting") {
    const ahead = job.ahead === null ? `more than ${QUEUE_POSITION_LIMIT}` : String(job.ahead);
    const { finished, spanMs } = context.drainRate;
    reasons.push({
      code: "queue",
      summary: `${ahead} ${job.ahead === 1 ? "job" : "jobs"} ahead of it` +
        queueWait(job.ahead, context.drainRate, job.concurrency),
      evidence: {
        ahead: job.ahead,
        waiting: job.waiting,
        finished,
        spanMs,
        keyLimit: heldByKey(job.concurrency) ? job.concurrency.limit : null,
      },
    });
  }

  if (job.collect) {
    const { count, firstAt } = job.collect;
    reasons.push({
      code: "collect",
      summary: `it is the flush of a collect buffer of ${countOf(count, "item")}` +
        (job.runAt === null ? "" : `, flushing ${inTime(job.runAt, now)}`),
      evidence: { key: key(job.collect.key), items: count, firstAt, flushAt: job.runAt },
    });
  } else if (job.debounceReplaced !== null && job.state === "delayed") {
    reasons.push({
      code: "debounce",
      summary: `a debounce replaced job ${job.debounceReplaced} with it: it runs ` +
        `${job.runAt === null ? "when due" : inTime(job.runAt, now)}, unless a later dispatch ` +
        "on the same debounce key replaces it first",
      evidence: { replaced: job.debounceReplaced, runAt: job.runAt },
    });
  } else if (job.state === "retrying") {
    reasons.push({
      code: "retryBackoff",
      summary: `attempt ${job.attempt - 1} of ${job.maxAttempts} failed: attempt ${job.attempt} ` +
        `runs ${job.runAt === null ? "when due" : inTime(job.runAt, now)} (retry backoff)`,
      evidence: { attempt: job.attempt, maxAttempts: job.maxAttempts, runAt: job.runAt },
      link: `${jobLink(job.id)}#attempts`,
    });
  } else if (job.state === "delayed") {
    reasons.push({
      code: "dispatchDelay",
      summary: `it was dispatched with a delay` +
        (job.dispatchDelayMs === null ? "" : ` of ${roughDuration(job.dispatchDelayMs)}`) +
        `: it runs ${job.runAt === null ? "when due" : inTime(job.runAt, now)}`,
      evidence: { delayMs: job.dispatchDelayMs, runAt: job.runAt },
    });
  }

  if (pending && job.expireAt !== null) reasons.push(expiry(job, job.expireAt, now));

  if (job.cancelRequested !== null) {
    const { at, reason } = job.cancelRequested;
    reasons.push({
      code: "cancelRequested",
      summary: `a cancel was asked for ${roughDuration(now - at)} ago` +
        (reason === null ? "" : ` ("${reason}")`) +
        ": it ends cancelled, not completed (its worker aborts it; with no worker holding its " +
        "lock, a live worker's stall check cancels it)",
      evidence: { cancelledAt: at, reason },
    });
  }

  if (job.state === "active") {
    const lock = job.lock;
    reasons.push(
      lock?.token != null
        ? {
          code: "running",
          // The time left is in the evidence: the page counts it down with its lock reading.
          summary: "a worker runs it and renews its lock",
          evidence: { lockToken: lock.token, lockTtlMs: lock.ttlMs },
        }
        : {
          code: "lockLost",
          summary: "no worker holds its lock: a live worker's stall check moves it back to " +
            "waiting (or fails it); with no worker of this task running, it stays active",
          evidence: { lastTakenAt: activity?.lastTakenAt ?? null },
          link: taskLink(job.task),
        },
    );
  }

  if (job.dedupKey !== null) {
    reasons.push({
      code: "dedup",
      // taskora's default deduplicate.while leaves retrying out.
      summary: job.state === "retrying"
        ? "it holds a dedup key, but while it is retrying a dispatch with the same key makes a " +
          "new job and takes the key, unless that dispatch's deduplicate.while names retrying " +
          `(${DEFAULT_DEDUP_WHILE})`
        : "it holds a dedup key: a dispatch with the same key is dropped as a duplicate of this " +
          "job while its state is one the dispatch's deduplicate.while names " +
          `(${DEFAULT_DEDUP_WHILE})`,
      evidence: { key: key(job.dedupKey) },
    });
  }

  const order = (reason: DiagnosisReason) => DIAGNOSIS_CODES.indexOf(reason.code);
  return { reasons: reasons.sort((a, b) => order(a) - order(b)), unknown };
}
