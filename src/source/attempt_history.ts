/**
 * Builds a job's {@link AttemptHistory} from the entries of its task's event
 * stream, read newest first in chunks by either source: the fold, the
 * numbering of the attempts, the runs and the rule for "complete" live here
 * once.
 *
 * @module
 */

import {
  ATTEMPT_SCAN_LIMIT,
  type AttemptHistory,
  type AttemptRecord,
  RUN_OUTCOMES,
  type RunOutcome,
  type RunRecord,
} from "../contract/attempts.ts";

export { ATTEMPT_SCAN_LIMIT };
export type { AttemptHistory, AttemptRecord };

/** The stream entries of a job the history reads: the failures, and what starts and ends a run. */
export const HISTORY_EVENTS: readonly string[] = ["active", ...RUN_OUTCOMES];

/** How many entries taskora's `MAXLEN ~ 10000` keeps at least once it has trimmed. */
const STREAM_CAP = 10_000;

/**
 * One stream entry of the job of {@link HISTORY_EVENTS}, its fields as
 * written. taskora 0.5.0's `retrying` carries the number of the attempt that
 * comes next (`HINCRBY attempt 1` first) and no error; its final `failed`
 * carries neither: the job hash keeps the last error. Its stall check writes
 * `stalled` with `action` `recovered` (back to waiting) or `failed`.
 */
export interface AttemptEntry {
  event: string;
  /** The entry's `attempt` field, or null when it has none. */
  attempt: number | null;
  /** The entry's `error` field, or null when it has none. */
  error: string | null;
  /** When it was written (ms). */
  at: number;
  /** The entry's `nextAttemptAt`, for a `retrying` one. */
  nextAttemptAt: number | null;
  /** The entry's `action`, for a `stalled` one (`recovered`: back to waiting; `failed`). */
  action: string | null;
}

/** A `failed` or `retrying` entry: one that ends an attempt. */
type FailureEntry = AttemptEntry & { event: "failed" | "retrying" };

/** One chunk of a stream read newest first. */
export interface AttemptChunk {
  /** The job's entries of {@link HISTORY_EVENTS} in the chunk, newest first. */
  found: AttemptEntry[];
  /** How many entries the chunk looked at. */
  scanned: number;
  /** The time (ms) of the oldest entry looked at, or null when none was. */
  oldestAt: number | null;
  /** True when the chunk reached the start of the stream. */
  reachedStart: boolean;
}

/** What the job's hash says now. */
export interface AttemptJob {
  createdAt: number;
  attempt: number;
  state: string;
  error: string | null;
}

/**
 * Reads chunks (`next` is called with the entries scanned so far) until one
 * reaches before `createdAt`, the start of the stream, or
 * {@link ATTEMPT_SCAN_LIMIT} entries, and folds them into a history.
 */
export async function collectAttempts(
  job: AttemptJob,
  next: (scanned: number) => Promise<AttemptChunk>,
): Promise<AttemptHistory> {
  const found: AttemptEntry[] = [];
  let scanned = 0;
  let complete = false;
  while (scanned < ATTEMPT_SCAN_LIMIT) {
    const chunk = await next(scanned);
    found.push(...chunk.found);
    scanned += chunk.scanned;
    if (chunk.oldestAt !== null && chunk.oldestAt < job.createdAt) {
      complete = true;
      break;
    }
    if (chunk.reachedStart || chunk.scanned === 0) {
      // Below the cap the stream was never trimmed: nothing older is lost.
      complete = scanned < STREAM_CAP;
      break;
    }
  }
  const oldestFirst = found.reverse();
  const failures = oldestFirst.filter((entry): entry is FailureEntry =>
    entry.event === "failed" || entry.event === "retrying"
  );
  return {
    attempts: numberAttempts(failures, job),
    runs: runsOf(oldestFirst),
    complete,
    scanned,
    attempt: job.attempt,
  };
}

/**
 * Gives each entry (oldest first) the number of the attempt that ended with
 * it: a `retrying` one the attempt before the one it names; a `failed` one
 * its own field, else the attempt the entry before announced (1 after a
 * final failure, as a retry from the board starts again at 1). The newest
 * entry, when the job is still in the state it wrote, is the job's current
 * outcome: it takes the job's error and, failed, the job's attempt.
 */
function numberAttempts(entries: FailureEntry[], job: AttemptJob): AttemptRecord[] {
  let upcoming = 1;
  return entries.map((entry, index): AttemptRecord => {
    const current = index === entries.length - 1 && entry.event === job.state;
    const attempt = entry.event === "retrying"
      ? (entry.attempt !== null ? Math.max(1, entry.attempt - 1) : upcoming)
      : entry.attempt ?? (current ? job.attempt : upcoming);
    upcoming = entry.event === "retrying" ? attempt + 1 : 1;
    return {
      attempt,
      outcome: entry.event,
      error: entry.error ?? (current ? job.error : null),
      at: entry.at,
      nextAttemptAt: entry.nextAttemptAt,
    };
  });
}

/**
 * The runs in `entries` (oldest first): each `active` entry starts one, the
 * next entry of {@link RUN_OUTCOMES} ends it; a `stalled` entry after a run
 * ended, `recovered`, is taskora's stall check putting the finished job back.
 */
function runsOf(entries: readonly AttemptEntry[]): RunRecord[] {
  const runs: RunRecord[] = [];
  for (const { event, action, at } of entries) {
    const last = runs.at(-1);
    if (event === "active") {
      runs.push({ startedAt: at, outcome: null, endedAt: null, requeuedAt: null });
    } else if (last && last.outcome === null) {
      last.outcome = event as RunOutcome;
      last.endedAt = at;
    } else if (last && event === "stalled" && action === "recovered") {
      last.requeuedAt ??= at;
    }
  }
  return runs;
}
