/**
 * Where taskora 0.5.0 keeps its flow control (checked against its Lua
 * scripts, `redis/scripts.ts`, and `redis/backend.ts`). All keys sit in the
 * task's slot, under `<root>:{task}:`:
 *
 * - per-key concurrency: the job hash has `concurrencyKey` and
 *   `concurrencyLimit` (the limit is stored per job, so a board without the
 *   App knows it); `conc:<key>` counts the key's running jobs (INCR on claim,
 *   DECR on ack, fail, retry, stall). A claim that finds the counter at the
 *   limit puts the job back at the far end of its queue.
 * - singleton: only the App knows it (a `moveToActive` argument); the
 *   script takes nothing while the active list is not empty.
 * - throttle: `throttle:<key>` counts dispatches in the window (PX window).
 *   A dispatch over the max is refused and no job is created, so no job is
 *   ever held by a throttle, and no job records its throttle key.
 * - debounce: `debounce:<key>` holds the id of the pending delayed job (PX
 *   twice the delay). A new dispatch on the key deletes that job and writes
 *   a `debounced` stream entry (`jobId` the old one, `replacedBy` the new
 *   one) in the same script that adds the new job's `delayed` entry. The job
 *   hash does not record the key.
 * - dedup: the job hash's `dedupKey` holds the whole key
 *   (`<root>:{task}:dedup:<key>`), whose value is the job's id until it
 *   finishes. A duplicate dispatch creates no job.
 * - collect: a buffer is `collect:<key>:items` (a list of serialized items),
 *   `collect:<key>:meta` (hash `count`, `firstAt`, `lastAt`) and
 *   `collect:<key>:job` (the id of its flush job, a delayed job whose hash
 *   has `collectKey`; it drains the buffer when a worker claims it).
 *
 * @module
 */

import { taskKeys } from "./keys.ts";

/** The job hash fields a diagnosis reads, in the order {@link decodeHoldFields} takes them. */
export const HOLD_FIELDS = [
  "state",
  "ts",
  "attempt",
  "maxAttempts",
  "_v",
  "delay",
  "concurrencyKey",
  "concurrencyLimit",
  "dedupKey",
  "collectKey",
  "expireAt",
  "cancelledAt",
  "cancelReason",
] as const;

/** The flow control fields of a job hash, decoded. */
export interface HoldFields {
  state: string | null;
  createdAt: number;
  attempt: number;
  maxAttempts: number;
  version: number;
  delayMs: number | null;
  concurrencyKey: string | null;
  concurrencyLimit: number;
  dedupKey: string | null;
  collectKey: string | null;
  /** When its TTL ends (ms); null without one (taskora writes 0). */
  expireAt: number | null;
  /** When a cancel of it was asked for while it ran (ms), or null. */
  cancelledAt: number | null;
  /** The reason given with that cancel, or null. */
  cancelReason: string | null;
}

const numberOr = <T>(raw: string | null, fallback: T): number | T => {
  const n = Number(raw ?? "");
  return raw !== null && raw !== "" && Number.isFinite(n) ? n : fallback;
};

/** The HMGET reply of {@link HOLD_FIELDS}, decoded. */
export function decodeHoldFields(reply: readonly (string | null)[]): HoldFields {
  const [
    state,
    ts,
    attempt,
    maxAttempts,
    v,
    delay,
    concKey,
    concLimit,
    dedupKey,
    collectKey,
    expireAt,
    cancelledAt,
    cancelReason,
  ] = reply;
  return {
    state,
    createdAt: numberOr(ts, 0),
    attempt: numberOr(attempt, 1),
    maxAttempts: numberOr(maxAttempts, 1),
    version: numberOr(v, 1),
    delayMs: numberOr(delay, null),
    concurrencyKey: concKey || null,
    concurrencyLimit: numberOr(concLimit, 0),
    dedupKey: dedupKey || null,
    collectKey: collectKey || null,
    expireAt: numberOr(expireAt, 0) > 0 ? numberOr(expireAt, 0) : null,
    cancelledAt: numberOr(cancelledAt, null),
    cancelReason: cancelReason || null,
  };
}

/** Keys of taskora's flow control for one task. */
export function flowControlKeys(task: string, prefix?: string): {
  /** `conc:<key>`: the running jobs of a concurrency key. */
  concurrency: (key: string) => string;
  /** `collect:<key>:meta`: a collect buffer's count and times. */
  collectMeta: (key: string) => string;
  /** What a job's `dedupKey` field starts with, before the caller's key. */
  dedupPrefix: string;
} {
  const base = taskKeys(task, prefix).jobPrefix;
  return {
    concurrency: (key) => `${base}conc:${key}`,
    collectMeta: (key) => `${base}collect:${key}:meta`,
    dedupPrefix: `${base}dedup:`,
  };
}

/** The caller's dedup key from the whole key a job hash holds. */
export function dedupKeyOf(stored: string, task: string, prefix?: string): string {
  const { dedupPrefix } = flowControlKeys(task, prefix);
  return stored.startsWith(dedupPrefix) ? stored.slice(dedupPrefix.length) : stored;
}
