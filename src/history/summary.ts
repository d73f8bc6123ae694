/**
 * What the board's history keeps of one job after taskora forgets it: the
 * entries the recorder writes (one per attempt that ended, keyed by the
 * event that reported it) and the job summary every store builds from them.
 *
 * A job failing three times is three entries, each with its own error; a job
 * taskora's stall check ran again after it completed is two runs. The store
 * assigns run numbers: a terminal entry after the job already had one starts
 * a new run.
 *
 * @module
 */

/** How an attempt ended: `retrying` when taskora will run the job again. */
export type AttemptOutcome = "retrying" | "completed" | "failed" | "expired" | "cancelled";

/** The outcomes that end a run. */
export const TERMINAL_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set([
  "completed",
  "failed",
  "expired",
  "cancelled",
]);

/** The longest error kept per attempt, in characters: enough to read it, a bound on storage. */
export const MAX_ERROR_LENGTH = 4096;

/**
 * One attempt's end, as the recorder saw it: the unit every store writes
 * idempotently. `(task, id, event)` names it: writing it again changes nothing.
 */
export interface HistoryEntry {
  /** The task. */
  task: string;
  /** The job's id. */
  id: string;
  /**
   * The id of the events-stream entry that reported it (`1700000000000-0`):
   * the same event delivered twice, by two leaders, is the same entry.
   */
  event: string;
  /** taskora's attempt number (1 for the first). */
  attempt: number;
  /** How it ended. */
  outcome: AttemptOutcome;
  /** The task version that ran it (`_v`), or null when the job did not say. */
  version: number | null;
  /** When the job was created (`ts`), ms. */
  createdAt: number;
  /** When this attempt started (`processedOn`), ms, or null when it never ran (expired, cancelled). */
  startedAt: number | null;
  /** When it ended (`finishedOn`, or the event's time for a retry), ms. */
  endedAt: number;
  /** This attempt's own error (cut at {@link MAX_ERROR_LENGTH}), or null. */
  error: string | null;
  /** The error's shape id (the dead letters' grouping), or null. */
  errorShape: string | null;
  /** The size of the job's input as taskora stored it, bytes, when it was read. */
  dataBytes?: number;
  /** The size of its result as taskora stored it, bytes, when it was read. */
  resultBytes?: number;
  /** The job's input after redaction, as JSON text, only when payloads are kept. */
  data?: string;
  /** Its result after redaction, as JSON text, only when payloads are kept. */
  result?: string;
}

/** One attempt in a summary. */
export interface AttemptRecord {
  /** The run it belongs to (1, or more after taskora ran a finished job again). */
  run: number;
  /** taskora's attempt number. */
  attempt: number;
  /** How it ended. */
  outcome: AttemptOutcome;
  /** When it started, ms, or null. */
  startedAt: number | null;
  /** When it ended, ms. */
  endedAt: number;
  /** Its own error, or null. */
  error: string | null;
}

/** One run of a job: its attempts up to the terminal one. */
export interface RunRecord {
  /** 1 for the first run. */
  run: number;
  /** The run's outcome, or `retrying` while it has not ended. */
  state: AttemptOutcome;
  /** When its first attempt started, ms, or null. */
  startedAt: number | null;
  /** When its last attempt ended, ms. */
  endedAt: number;
  /** How many attempts it took. */
  attempts: number;
}

/** What the history says of one job. */
export interface JobSummary {
  /** The job's id. */
  id: string;
  /** The task. */
  task: string;
  /** The version that ran its last attempt, or null. */
  version: number | null;
  /** The outcome of its last attempt. */
  state: AttemptOutcome;
  /** When it was created, ms. */
  createdAt: number;
  /** When its last attempt started, ms, or null. */
  processedAt: number | null;
  /** When its last attempt ended, ms. */
  finishedAt: number;
  /** From creation to its first attempt's start, ms, or null when it never started. */
  waitMs: number | null;
  /** Its last attempt's running time, ms, or null. */
  runMs: number | null;
  /** Every attempt, oldest first, each with its own error. */
  attempts: AttemptRecord[];
  /** Every run, oldest first: two after taskora ran a completed job again. */
  runs: RunRecord[];
  /** The last error's shape id, or null. */
  errorShape: string | null;
  /** The input's size as taskora stored it, bytes, or null when unknown. */
  dataBytes: number | null;
  /** The result's size as taskora stored it, bytes, or null when unknown (or none). */
  resultBytes: number | null;
  /** The input after redaction (JSON text), when payloads are kept. */
  data?: string;
  /** The result after redaction (JSON text), when payloads are kept. */
  result?: string;
}

/** Orders attempts as a summary lists them: by run, then attempt, then time. */
export function byRunAndAttempt(a: AttemptRecord, b: AttemptRecord): number {
  return a.run - b.run || a.attempt - b.attempt || a.endedAt - b.endedAt;
}

/** The runs a job's attempts (ordered by {@link byRunAndAttempt}) make. */
export function runsOf(attempts: readonly AttemptRecord[]): RunRecord[] {
  const runs: RunRecord[] = [];
  for (const attempt of attempts) {
    const last = runs.at(-1);
    if (last?.run === attempt.run) {
      last.state = attempt.outcome;
      last.endedAt = attempt.endedAt;
      last.attempts++;
    } else {
      runs.push({
        run: attempt.run,
        state: attempt.outcome,
        startedAt: attempt.startedAt,
        endedAt: attempt.endedAt,
        attempts: 1,
      });
    }
  }
  return runs;
}

/**
 * The summary of a job from what every store keeps of it: the facts of its
 * latest entry and every attempt. One function, so the three stores answer alike.
 */
export function summaryOf(
  latest: Pick<
    HistoryEntry,
    | "id"
    | "task"
    | "version"
    | "createdAt"
    | "errorShape"
    | "dataBytes"
    | "resultBytes"
    | "data"
    | "result"
  >,
  attempts: readonly AttemptRecord[],
): JobSummary {
  const ordered = [...attempts].sort(byRunAndAttempt);
  const last = ordered.at(-1)!;
  const firstStart = ordered.find((attempt) => attempt.startedAt !== null)?.startedAt ?? null;
  const summary: JobSummary = {
    id: latest.id,
    task: latest.task,
    version: latest.version,
    state: last.outcome,
    createdAt: latest.createdAt,
    processedAt: last.startedAt,
    finishedAt: last.endedAt,
    waitMs: firstStart === null ? null : Math.max(0, firstStart - latest.createdAt),
    runMs: last.startedAt === null ? null : Math.max(0, last.endedAt - last.startedAt),
    attempts: ordered,
    runs: runsOf(ordered),
    errorShape: latest.errorShape,
    dataBytes: latest.dataBytes ?? null,
    resultBytes: latest.resultBytes ?? null,
  };
  if (latest.data !== undefined) summary.data = latest.data;
  if (latest.result !== undefined) summary.result = latest.result;
  return summary;
}

/** An entry's error cut to {@link MAX_ERROR_LENGTH}. */
export function boundedError(error: string | null): string | null {
  return error === null || error.length <= MAX_ERROR_LENGTH
    ? error
    : error.slice(0, MAX_ERROR_LENGTH);
}
