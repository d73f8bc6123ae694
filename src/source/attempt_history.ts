/**
 * Builds a job's {@link AttemptHistory} from the entries of its task's event
 * stream, read newest first in chunks by either source: the fold and the
 * rule for "complete" live here once.
 *
 * @module
 */

import {
  ATTEMPT_SCAN_LIMIT,
  type AttemptHistory,
  type AttemptRecord,
} from "../contract/attempts.ts";

export { ATTEMPT_SCAN_LIMIT };
export type { AttemptHistory, AttemptRecord };

/** How many entries taskora's `MAXLEN ~ 10000` keeps at least once it has trimmed. */
const STREAM_CAP = 10_000;

/** One chunk of a stream read newest first. */
export interface AttemptChunk {
  /** The job's `failed` / `retrying` entries in the chunk, newest first. */
  found: AttemptRecord[];
  /** How many entries the chunk looked at. */
  scanned: number;
  /** The time (ms) of the oldest entry looked at, or null when none was. */
  oldestAt: number | null;
  /** True when the chunk reached the start of the stream. */
  reachedStart: boolean;
}

/**
 * Reads chunks (`next` is called with the entries scanned so far) until one
 * reaches before `createdAt`, the start of the stream, or
 * {@link ATTEMPT_SCAN_LIMIT} entries, and folds them into a history.
 */
export async function collectAttempts(
  job: { createdAt: number; attempt: number },
  next: (scanned: number) => Promise<AttemptChunk>,
): Promise<AttemptHistory> {
  const found: AttemptRecord[] = [];
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
  return { attempts: found.reverse(), complete, scanned, attempt: job.attempt };
}
