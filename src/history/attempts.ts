/**
 * The Attempts tab's answer (`GET /jobs/{id}/attempts`) with the history's
 * help: taskora keeps one error per job (each retry overwrites it) and its
 * `retrying` event carries none, so the events stream alone shows
 * `[null, null, "gateway timeout #3"]` for a job failing three times. The
 * history read each attempt's own error when it ended: it fills the
 * stream's gaps, and answers alone for a job taskora no longer holds.
 *
 * @module
 */

import type { AttemptHistory, RunOutcome } from "../contract/attempts.ts";
import type { AttemptRecord as KeptAttempt, JobSummary } from "./summary.ts";

/** A kept attempt that ended in a failure, as the stream lists them. */
function failedAttempt(attempt: KeptAttempt): attempt is KeptAttempt & {
  outcome: "failed" | "retrying";
} {
  return attempt.outcome === "failed" || attempt.outcome === "retrying";
}

/** The kept failure of attempt number `attempt` that ended nearest `at`, if any. */
function keptFailure(
  summary: Pick<JobSummary, "attempts">,
  attempt: number,
  at: number,
): KeptAttempt | undefined {
  let nearest: KeptAttempt | undefined;
  for (const kept of summary.attempts) {
    if (!failedAttempt(kept) || kept.attempt !== attempt) continue;
    if (!nearest || Math.abs(kept.endedAt - at) < Math.abs(nearest.endedAt - at)) nearest = kept;
  }
  return nearest;
}

/**
 * The stream's attempts, each error the stream lacks taken from the
 * history's attempt of the same number that ended nearest (a retry from the
 * board numbers attempts from 1 again).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withKeptErrors } from "./attempts.ts";
 * const failure = (attempt: number, at: number, error: string | null) =>
 *   ({ attempt, outcome: "retrying" as const, error, at, nextAttemptAt: null });
 * const kept = (attempt: number, endedAt: number) =>
 *   ({ run: 1, attempt, outcome: "retrying" as const, startedAt: null, endedAt, error: `#${attempt}` });
 * const filled = withKeptErrors(
 *   { attempts: [failure(1, 10, null), failure(2, 20, "own")], runs: [], complete: true, scanned: 2, attempt: 3 },
 *   { attempts: [kept(1, 11), kept(2, 21)] },
 * );
 * assert.deepEqual(filled.attempts.map((a) => a.error), ["#1", "own"]);
 * ```
 */
export function withKeptErrors(
  stream: AttemptHistory,
  summary: Pick<JobSummary, "attempts">,
): AttemptHistory {
  return {
    ...stream,
    attempts: stream.attempts.map((attempt) =>
      attempt.error !== null
        ? attempt
        : { ...attempt, error: keptFailure(summary, attempt.attempt, attempt.at)?.error ?? null }
    ),
  };
}

/** How a kept attempt ended, in the stream's words: an expiry ends no worker's run there. */
function runOutcome(outcome: KeptAttempt["outcome"]): RunOutcome | null {
  return outcome === "expired" ? null : outcome;
}

/**
 * The Attempts tab of a job taskora no longer holds: all the history kept,
 * each attempt a worker's run as the stream counts them (a run taskora's
 * stall check made again included).
 */
export function keptAttempts(summary: JobSummary): AttemptHistory {
  return {
    attempts: summary.attempts.filter(failedAttempt).map((attempt) => ({
      attempt: attempt.attempt,
      outcome: attempt.outcome,
      error: attempt.error,
      at: attempt.endedAt,
      nextAttemptAt: null,
    })),
    runs: summary.attempts.map((attempt) => ({
      startedAt: attempt.startedAt ?? attempt.endedAt,
      outcome: runOutcome(attempt.outcome),
      endedAt: attempt.endedAt,
      requeuedAt: null,
    })),
    complete: true,
    scanned: 0,
    attempt: summary.attempts.at(-1)?.attempt ?? 1,
  };
}
