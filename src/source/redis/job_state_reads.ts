/**
 * The states of the jobs `GET /schedules` shows (each schedule's last run,
 * and the runs the board dispatched): one pipeline of `HGET <job> state`,
 * each in its task's slot, for the jobs not known to be finished. A run
 * ends once (completed, failed, cancelled, expired, or gone from the store)
 * and stays so until a retry or taskora's retention moves it on, so a
 * finished state is kept for {@link FINISHED_STATE_KEEP_MS} and read again
 * after that: the list asked every few seconds reads only its unfinished
 * runs' states, not every run's at each request.
 *
 * @module
 */

import { JOB_STATES, type JobState } from "../types.ts";
import type { RedisConnection } from "./client.ts";

/** How long a finished state is trusted before it is read again, ms. */
export const FINISHED_STATE_KEEP_MS = 60_000;
/** The most finished states kept (those read longest ago leave first). */
export const FINISHED_STATES_KEPT = 10_000;

const FINISHED: ReadonlySet<JobState | null> = new Set([
  "completed",
  "failed",
  "cancelled",
  "expired",
  null,
]);

/** A stored job state, or null for anything else. */
export function asState(raw: unknown): JobState | null {
  return typeof raw === "string" && (JOB_STATES as readonly string[]).includes(raw)
    ? raw as JobState
    : null;
}

/** Finished states by job key, each with when it was read (on the source's clock). */
export class FinishedStates {
  /** Read longest ago first: a Map keeps insertion order, and a reread moves one to the end. */
  readonly #kept = new Map<string, { state: JobState | null; at: number }>();
  readonly #now: () => number;

  /** States kept on the clock `now` (ms since the epoch: {@link readAt} is answered as it is). */
  constructor(now: () => number) {
    this.#now = now;
  }

  /** The finished state of the job at `key` when read within the last minute, else undefined. */
  get(key: string): JobState | null | undefined {
    const kept = this.#kept.get(key);
    if (!kept) return undefined;
    if (this.#now() - kept.at < FINISHED_STATE_KEEP_MS) return kept.state;
    this.#kept.delete(key);
    return undefined;
  }

  /** When the finished state kept for `key` was read (ms), or undefined when none is kept. */
  readAt(key: string): number | undefined {
    return this.#kept.get(key)?.at;
  }

  /** Keeps the state just read of the job at `key` when it is a finished one. */
  note(key: string, state: JobState | null): void {
    this.#kept.delete(key);
    if (!FINISHED.has(state)) return;
    this.#kept.set(key, { state, at: this.#now() });
    if (this.#kept.size > FINISHED_STATES_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
  }
}

/**
 * The state of each job hash in `keys` (null: gone, or not read), reading
 * only those `finished` does not know: one pipeline, none when it knows all.
 */
export async function readJobStates(
  connection: RedisConnection,
  keys: readonly string[],
  finished: FinishedStates,
): Promise<(JobState | null)[]> {
  const states = keys.map((key) => finished.get(key));
  const unknown = keys.flatMap((_, i) => states[i] === undefined ? [i] : []);
  const replies = await connection.pipelineSettled(
    unknown.map((i) => ["HGET", keys[i], "state"]),
  );
  unknown.forEach((i, j) => {
    const state = asState(replies[j]);
    // An error answer says nothing of the job: shown as unknown, never kept.
    if (!(replies[j] instanceof Error)) finished.note(keys[i], state);
    states[i] = state;
  });
  return states as (JobState | null)[];
}
