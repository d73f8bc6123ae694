/**
 * Triggering a schedule (`app.schedules.trigger`) and running a job again
 * (`task.dispatch`) through the App: the job is dispatched by taskora itself, so its `_v`, TTL, collect buffering,
 * input schema and serializer are the task's own.
 *
 * taskora gives the dispatched job a random id, so an idempotency key
 * cannot name the job as it does without the App. Instead the board notes
 * each key's job in a {@link TriggerLedger} for a day: a trigger sent again
 * with the same key finds the job the first one made.
 *
 * @module
 */

import { BoardError } from "../errors.ts";
import type { RerunResult } from "../contract/jobs.ts";
import type { TriggerResult } from "../contract/schedules.ts";
import { scheduleNotFound } from "../source/refusals.ts";
import { triggerJobId } from "../source/trigger_id.ts";
import { findTask, type TaskoraAppLike } from "./app.ts";

/** How long a trigger's idempotency key is remembered, ms. */
export const TRIGGER_KEY_TTL_MS = 24 * 60 * 60_000;

/**
 * How long a key is held as being sent before its job is noted, ms: a
 * board that dies mid-dispatch leaves the key usable again after this,
 * not after a day.
 */
export const TRIGGER_CLAIM_TTL_MS = 60_000;

/**
 * What a ledger notes for an idempotency key: the job its request made
 * (`""` while that request is still being sent) and the fingerprint of that
 * request, so the key sent again with another request is refused rather
 * than answered with the first one's job. `null`: a note written before
 * fingerprints were kept, which matches any request.
 */
export interface LedgerEntry {
  jobId: string;
  fingerprint: string | null;
}

/** Where the job of each idempotency key is noted. */
export interface TriggerLedger {
  /**
   * Claims `token` for a new request with `fingerprint`: null when claimed,
   * otherwise what its first request noted.
   */
  claim(token: string, fingerprint: string): Promise<LedgerEntry | null>;
  /** Notes the job a claimed token dispatched. */
  record(token: string, entry: LedgerEntry): Promise<void>;
  /** Gives a claim back (its dispatch failed). */
  release(token: string): Promise<void>;
}

/**
 * A ledger entry as one string, `<fingerprint>:<job id>` (a fingerprint is
 * hex, so the first colon ends it whatever the job id holds).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(encodeLedgerEntry({ jobId: "a:b", fingerprint: "f0" }), "f0:a:b");
 * assert.deepEqual(decodeLedgerEntry("f0:a:b"), { jobId: "a:b", fingerprint: "f0" });
 * assert.deepEqual(decodeLedgerEntry("job-1"), { jobId: "job-1", fingerprint: null });
 * ```
 */
export function encodeLedgerEntry(entry: LedgerEntry): string {
  return `${entry.fingerprint ?? ""}:${entry.jobId}`;
}

/** Reads {@link encodeLedgerEntry}'s string; a bare job id (an older note) has no fingerprint. */
export function decodeLedgerEntry(value: string): LedgerEntry {
  const colon = value.indexOf(":");
  if (colon < 0) return { jobId: value, fingerprint: null };
  return { jobId: value.slice(colon + 1), fingerprint: value.slice(0, colon) };
}

/**
 * The job a claimed key already names, or a refusal: 422 when the key was
 * first sent with another request (the IETF Idempotency-Key draft's answer),
 * 409 while its first request is still being sent. `what` names the
 * request for the messages.
 */
export function claimedJob(existing: LedgerEntry, fingerprint: string, what: string): string {
  if (existing.fingerprint !== null && existing.fingerprint !== fingerprint) {
    throw new BoardError(
      "IDEMPOTENCY_KEY_REUSED",
      `This Idempotency-Key was first sent with another request for ${what}: send a new key ` +
        "for a new request",
      { param: "idempotency-key" },
    );
  }
  if (existing.jobId === "") {
    throw new BoardError(
      "INVALID_STATE",
      `A request for ${what} with this Idempotency-Key is still being sent; look again`,
    );
  }
  return existing.jobId;
}

/** Most keys a {@link memoryLedger} keeps; the oldest go first. */
const MEMORY_LEDGER_SIZE = 1000;

/** A ledger in this process, bounded, for an App whose store is in memory too. */
export function memoryLedger(now: () => number = Date.now): TriggerLedger {
  const entries = new Map<string, LedgerEntry & { at: number }>();
  return {
    claim(token, fingerprint) {
      const entry = entries.get(token);
      const ttl = entry?.jobId === "" ? TRIGGER_CLAIM_TTL_MS : TRIGGER_KEY_TTL_MS;
      if (entry && now() - entry.at < ttl) {
        return Promise.resolve({ jobId: entry.jobId, fingerprint: entry.fingerprint });
      }
      entries.delete(token);
      entries.set(token, { jobId: "", fingerprint, at: now() });
      if (entries.size > MEMORY_LEDGER_SIZE) entries.delete(entries.keys().next().value!);
      return Promise.resolve(null);
    },
    record(token, entry) {
      entries.set(token, { ...entry, at: now() });
      return Promise.resolve();
    },
    release(token) {
      entries.delete(token);
      return Promise.resolve();
    },
  };
}

function failure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function refusedDispatch(error: unknown): BoardError {
  if (error instanceof BoardError) return error;
  return new BoardError("INVALID_STATE", `taskora refused the dispatch: ${failure(error)}`, {
    cause: error,
  });
}

/**
 * Runs job `jobId` of `task` again through the App: `task.dispatch(data)`,
 * so the new job's `_v`, TTL, collect buffering, input schema and
 * serializer are the task's own. `INVALID_STATE` when this App does not
 * register the task or taskora refuses the dispatch (e.g. its input schema
 * rejects the data).
 */
export async function rerunThroughApp(
  app: TaskoraAppLike,
  job: { id: string; task: string; data: unknown },
): Promise<RerunResult> {
  const definition = findTask(app, job.task);
  if (!definition) {
    throw new BoardError(
      "INVALID_STATE",
      `Job ${job.id} is of task "${job.task}", which this App does not register: register it ` +
        "(app.task, or app.register(contract)) in the process that serves the board",
    );
  }
  let jobId: string;
  try {
    jobId = String(await definition.dispatch(job.data));
  } catch (error) {
    throw refusedDispatch(error);
  }
  return {
    jobId,
    task: job.task,
    version: definition.version,
    versionFrom: "app",
    expireAtFrom: "app",
  };
}

/**
 * Dispatches one run of schedule `name` (which runs `task`) through the
 * App. `INVALID_STATE` when this App does not register the task (the fix:
 * register it where the board runs) or when taskora refuses the dispatch
 * (e.g. its input schema rejects the schedule's data).
 */
export async function triggerThroughApp(
  app: TaskoraAppLike,
  ledger: TriggerLedger,
  schedule: { name: string; task: string },
  idempotencyKey?: string,
): Promise<TriggerResult> {
  const { name, task } = schedule;
  const definition = findTask(app, task);
  if (!definition) {
    throw new BoardError(
      "INVALID_STATE",
      `Schedule "${name}" runs task "${task}", which this App does not register: register it ` +
        "(app.task, or app.register(contract)) in the process that serves the board",
    );
  }
  const token = idempotencyKey === undefined ? null : await triggerJobId(name, idempotencyKey);
  if (token !== null) {
    // A trigger has no body: every request with the key is the same request.
    const existing = await ledger.claim(token, "");
    if (existing !== null) {
      return { jobId: claimedJob(existing, "", `schedule "${name}"`), created: false };
    }
  }
  let jobId: string;
  try {
    jobId = String(await app.schedules.trigger(name));
  } catch (error) {
    if (token !== null) await ledger.release(token).catch(() => {});
    if (/not found/i.test(failure(error)) && /schedule/i.test(failure(error))) {
      throw scheduleNotFound(name);
    }
    throw refusedDispatch(error);
  }
  if (token !== null) await ledger.record(token, { jobId, fingerprint: "" });
  return {
    jobId,
    created: true,
    version: definition.version,
    versionFrom: "app",
    expireAtFrom: "app",
  };
}
