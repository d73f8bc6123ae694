/**
 * A job's attempt history: each attempt that ended in a failure, read from
 * the `failed` and `retrying` entries of its task's event stream, and each
 * run a worker made of it (its `active` entries, and how each ended), so a
 * job taskora's stall check ran again reads as having run twice. The stream
 * is capped (taskora writes it with `MAXLEN ~ 10000`), so the history of an
 * old job, or of one on a busy task, may have been trimmed away: the answer
 * says whether it is complete.
 *
 * @module
 */

/** How many of a task's newest stream entries a history looks at, at most (taskora keeps about 10,000). */
export const ATTEMPT_SCAN_LIMIT = 10_000;

/** One attempt that ended in a failure. */
export interface AttemptRecord {
  /** The attempt number (1 for the first; a retry from the board starts again at 1). */
  attempt: number;
  /** `retrying`: another attempt was due; `failed`: it was the last. */
  outcome: "failed" | "retrying";
  /** The error it failed with, or null when the entry has none. */
  error: string | null;
  /** When it ended (ms, the stream entry's time). */
  at: number;
  /** When the next attempt was due, for a `retrying` one. */
  nextAttemptAt: number | null;
}

/** How a run ended, as the job's next stream entry after its start says. */
export type RunOutcome = "completed" | "failed" | "retrying" | "cancelled" | "stalled";

/** Every {@link RunOutcome}: the stream entries that end a run. */
export const RUN_OUTCOMES: readonly RunOutcome[] = [
  "completed",
  "failed",
  "retrying",
  "cancelled",
  "stalled",
];

/** One run of the job by a worker: from its `active` entry to the entry that ended it. */
export interface RunRecord {
  /** When a worker took the job (ms, the `active` entry's time). */
  startedAt: number;
  /**
   * How it ended: `stalled` when taskora's stall check took it from a worker
   * that held no lock (put back to waiting, or failed); null while it runs,
   * or when no entry ended it.
   */
  outcome: RunOutcome | null;
  /** When it ended (ms), or null. */
  endedAt: number | null;
  /**
   * When taskora's stall check put the job back to waiting after this run
   * had ended (ms), else null: taskora 0.5.0 moves a job the check listed
   * and found without a lock whatever its state, so a job that finished
   * between the check and its worker's next lock renewal runs again.
   */
  requeuedAt: number | null;
}

/** `GET /jobs/{id}/attempts`. */
export interface AttemptHistory {
  /** The failed attempts found, oldest first. */
  attempts: AttemptRecord[];
  /** Every run found, oldest first: more than one when it was retried or run again. */
  runs: RunRecord[];
  /**
   * True when the stream entries looked at reach back to before the job was
   * created, or the whole stream was read and was never trimmed: no failed
   * attempt is missing. False: older attempts may have been trimmed away.
   */
  complete: boolean;
  /** How many stream entries were looked at. */
  scanned: number;
  /** The job's attempt now. */
  attempt: number;
}

/** An attempt as `GET /jobs/{id}/attempts` answers it. */
export interface AttemptView extends AttemptRecord {
  /**
   * Its logs, by the `tracing.logsUrl` template over its window (from the
   * job's creation or the previous attempt's retry time to its end); null
   * without the template, or for a user who may not read the job's data.
   */
  logs: string | null;
}

/** The answer of `GET /jobs/{id}/attempts`. */
export interface AttemptHistoryResponse extends Omit<AttemptHistory, "attempts"> {
  /** The failed attempts found, oldest first. */
  attempts: AttemptView[];
}
