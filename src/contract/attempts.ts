/**
 * A job's attempt history: each attempt that ended in a failure, read from
 * the `failed` and `retrying` entries of its task's event stream. The stream
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

/** `GET /jobs/{id}/attempts`. */
export interface AttemptHistory {
  /** The failed attempts found, oldest first. */
  attempts: AttemptRecord[];
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
