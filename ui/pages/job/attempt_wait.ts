/**
 * How long a job's current attempt waited to start: from its creation for
 * the first attempt; for a later one, from when it was due (the `retrying`
 * entry's next-attempt time before its start), since the time from creation
 * counts every earlier attempt and backoff too.
 *
 * @module
 */
import type { AttemptRecord } from "../../../src/contract/attempts.ts";

/** What the wait is read from: the job's attempt and times. */
export interface AttemptTimes {
  attempt: number;
  created: number;
  processed: number | null;
}

/**
 * The current attempt's wait (ms); null before it starts, or when the retry
 * that made it due is not in `history` (the stream was trimmed, or the
 * history is not read).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { attemptWait } from "./attempt_wait.ts";
 *
 * assert.equal(attemptWait({ attempt: 1, created: 100, processed: 150 }, null), 50);
 * const retried = { attempt: 1, outcome: "retrying" as const, error: null, at: 160, nextAttemptAt: 900 };
 * assert.equal(attemptWait({ attempt: 2, created: 100, processed: 950 }, [retried]), 50);
 * ```
 */
export function attemptWait(
  { attempt, created, processed }: AttemptTimes,
  history: readonly AttemptRecord[] | null,
): number | null {
  if (processed === null) return null;
  if (attempt <= 1) return processed - created;
  const due = history?.findLast((record) =>
    record.outcome === "retrying" && record.nextAttemptAt !== null && record.at <= processed
  )?.nextAttemptAt;
  return due == null ? null : Math.max(0, processed - due);
}
