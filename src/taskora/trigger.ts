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

/** Where the job of each idempotency key is noted. */
export interface TriggerLedger {
  /**
   * Claims `token` for a new trigger: null when claimed, otherwise the job
   * its first trigger made (`""` while that one is still dispatching).
   */
  claim(token: string): Promise<string | null>;
  /** Notes the job a claimed token dispatched. */
  record(token: string, jobId: string): Promise<void>;
  /** Gives a claim back (its dispatch failed). */
  release(token: string): Promise<void>;
}

/** Most keys a {@link memoryLedger} keeps; the oldest go first. */
const MEMORY_LEDGER_SIZE = 1000;

/** A ledger in this process, bounded, for an App whose store is in memory too. */
export function memoryLedger(now: () => number = Date.now): TriggerLedger {
  const entries = new Map<string, { jobId: string; at: number }>();
  return {
    claim(token) {
      const entry = entries.get(token);
      const ttl = entry?.jobId === "" ? TRIGGER_CLAIM_TTL_MS : TRIGGER_KEY_TTL_MS;
      if (entry && now() - entry.at < ttl) return Promise.resolve(entry.jobId);
      entries.delete(token);
      entries.set(token, { jobId: "", at: now() });
      if (entries.size > MEMORY_LEDGER_SIZE) entries.delete(entries.keys().next().value!);
      return Promise.resolve(null);
    },
    record(token, jobId) {
      entries.set(token, { jobId, at: now() });
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
    const existing = await ledger.claim(token);
    if (existing === "") {
      throw new BoardError(
        "INVALID_STATE",
        `A trigger of "${name}" with this Idempotency-Key is still being dispatched; look again`,
      );
    }
    if (existing !== null) return { jobId: existing, created: false };
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
  if (token !== null) await ledger.record(token, jobId);
  return {
    jobId,
    created: true,
    version: definition.version,
    versionFrom: "app",
    expireAtFrom: "app",
  };
}
