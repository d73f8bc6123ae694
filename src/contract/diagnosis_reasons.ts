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
  /** Jobs of the task completed in the last {@link RATE_WINDOW_MS}. */
  completedRecently: number;
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

const inTime = (at: number, now: number) =>
  at <= now ? `now (due ${roughDuration(now - at)} ago)` : `in ${roughDuration(at - now)}`;

const jobLink = (id: string) => `/jobs/${encodeURIComponent(id)}`;
const taskLink = (task: string) => `/tasks/${encodeURIComponent(task)}`;

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
 *   dedupKey: null, collect: null, debounceReplaced: null, active: { count: 1, ids: ["j0"] },
 *   lock: null,
 * };
 * const context = {
 *   now: 60_000, definition: null, migrationLock: null, completedRecently: 1_400, showKeys: true,
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
  const starved = activity !== null && job.waiting > 0 &&
    (idleFor !== null
      ? idleFor > context.maxIdleMs
      : idleAtLeast !== null
      ? idleAtLeast > context.maxIdleMs
      : true);
  if (starved && (pending || job.lock?.token == null)) {
    const waiting = `${countOf(job.waiting, "job")} ${job.waiting === 1 ? "waits" : "wait"}`;
    reasons.push({
      code: "noWorker",
      summary: idleFor !== null
        ? `no worker took a job of ${job.task} for ${roughDuration(idleFor)}, while ${waiting}`
        : idleAtLeast !== null
        ? `no worker took a job of ${job.task} for ${
          roughDuration(idleAtLeast)
        } at least, while ${waiting}`
        : `no worker took a job of ${job.task} in the newest ${
          countOf(activity.scanned, "event")
        } of its stream, while ${waiting}`,
      evidence: {
        lastTakenAt: activity.lastTakenAt,
        waiting: job.waiting,
        eventsScanned: activity.scanned,
        eventsSince: activity.coveredSince,
      },
      link: taskLink(job.task),
    });
  }

  if (pending && definition?.singleton && job.active.count > 0) {
    const [running] = job.active.ids;
    reasons.push({
      code: "singleton",
      summary:
        `${job.task} is a singleton and job ${running} runs: no other job starts until it ends`,
      evidence: { running: job.active.ids },
      link: jobLink(running),
    });
  }

  const conc = job.concurrency;
  // taskora checks a key's counter only when the job's limit is above 0.
  if (pending && conc && conc.limit > 0 && conc.inUse >= conc.limit) {
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
    const perMinute = context.completedRecently / 10;
    const eta = job.ahead !== null && perMinute > 0
      ? `: about ${roughDuration((job.ahead / perMinute) * 60_000)} at the last 10 minutes' rate`
      : perMinute > 0
      ? ""
      : ": none of its jobs completed in the last 10 minutes";
    reasons.push({
      code: "queue",
      summary: `${ahead} ${job.ahead === 1 ? "job" : "jobs"} ahead of it${eta}`,
      evidence: {
        ahead: job.ahead,
        waiting: job.waiting,
        completedLast10Min: context.completedRecently,
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
