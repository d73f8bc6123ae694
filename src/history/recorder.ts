/**
 * The history's recorder core: from a batch of task events (entries of
 * taskora's events streams, as the change feed delivers them) and one read
 * of each ending job's fields, the entries to write, written through a
 * {@link HistoryStore} together with the feed's last ids.
 *
 * What taskora's events say, and what they do not (taskora 0.5.0): a
 * `retrying` entry carries the number of the attempt that comes next and no
 * error; `completed` and `failed` carry only the job id; each retry
 * overwrites the job's `error` and the next attempt its `processedOn`. So the
 * error of an attempt that will be retried is read from the job when its
 * `retrying` event is recorded, and an attempt's start is the time of the
 * job's `active` entry before it in the batch (a stream id is its time in
 * ms), else the job's `processedOn` when it is not later than the end. An
 * error the job holds that a later failure in the same batch wrote is not
 * given to an earlier attempt: that attempt's error is then unknown (null),
 * never another's.
 *
 * @module
 */

import { errorPattern } from "../source/dead_letters.ts";
import type { HistoryStore } from "./store.ts";
import { type AttemptOutcome, boundedError, type HistoryEntry } from "./summary.ts";

/** One entry of a task's events stream: its stream id and raw fields (`event`, `jobId`, ...). */
export interface TaskEvent {
  /** The task whose stream it is. */
  task: string;
  /** The stream entry's id (`<ms>-<seq>`). */
  id: string;
  /** Its fields as taskora wrote them. */
  fields: Readonly<Record<string, string>>;
}

/** A job to read, and what the read found (null: taskora no longer holds it). */
export interface JobRef {
  /** The task. */
  task: string;
  /** The job id. */
  jobId: string;
}

/** The job hash fields the recorder reads, once per ending job in a batch. */
export const RECORDED_FIELDS = [
  "ts",
  "processedOn",
  "finishedOn",
  "attempt",
  "_v",
  "error",
  "cancelledAt",
] as const;

/** The fields read of a job (absent ones left out), and the sizes of its input and result. */
export type JobFields = Partial<
  Record<typeof RECORDED_FIELDS[number] | "data" | "result" | "dataBytes" | "resultBytes", string>
>;

/**
 * Reads the fields of each job and the sizes of its input and result (and
 * `data`, `result` themselves when `payloads`), in order: at most one read per job.
 */
export type JobFieldsReader = (
  jobs: readonly JobRef[],
  payloads: boolean,
) => Promise<(JobFields | null)[]>;

/** Options of {@link createRecorder}. */
export interface RecorderOptions {
  /** Where the history goes. */
  store: HistoryStore;
  /** How the job fields are read. */
  read: JobFieldsReader;
  /**
   * Keeps the input and result, after this redaction (`history.payloads`);
   * without it, no payload is read or stored.
   */
  redact?: (value: unknown) => unknown;
}

/** The events that end an attempt, and how. */
const ENDING: Readonly<Record<string, AttemptOutcome>> = {
  retrying: "retrying",
  completed: "completed",
  failed: "failed",
  expired: "expired",
  cancelled: "cancelled",
};

/** A stream id's time, ms. */
function timeOf(streamId: string): number {
  return Number(streamId.slice(0, streamId.indexOf("-")));
}

function numberOf(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}

function jobKey(task: string, jobId: string): string {
  return `${task}\0${jobId}`;
}

/** A payload as stored: parsed, redacted, written back as JSON text (a non-JSON one kept as it is, redacted as a string). */
function storedPayload(raw: string, redact: (value: unknown) => unknown): string {
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // a custom serializer's text: redacted as the string it is
  }
  return JSON.stringify(redact(value)) ?? "null";
}

/** The most attempt starts a recorder carries from one batch to the next. */
export const MAX_CARRIED_STARTS = 10_000;

/**
 * The entries a batch of events makes, given each ending job's fields
 * (`jobs`, keyed by task and job id). `starts` holds the time of each job's
 * last `active` entry not yet followed by its end: the recorder carries it
 * from batch to batch (an attempt may start in one and end in the next),
 * and this function updates it. The recorder's whole judgement.
 */
export function entriesOf(
  events: readonly TaskEvent[],
  jobs: ReadonlyMap<string, JobFields | null>,
  redact?: (value: unknown) => unknown,
  starts: Map<string, number> = new Map(),
): HistoryEntry[] {
  const lastActive = starts;
  const lastFailure = new Map<string, string>();
  for (const event of events) {
    const kind = event.fields.event;
    if (kind === "retrying" || kind === "failed") {
      lastFailure.set(jobKey(event.task, event.fields.jobId), event.id);
    }
  }
  const entries: HistoryEntry[] = [];
  for (const event of events) {
    const jobId = event.fields.jobId;
    if (!jobId) continue;
    const key = jobKey(event.task, jobId);
    const at = timeOf(event.id);
    const kind = event.fields.event;
    if (kind === "active") {
      lastActive.delete(key); // re-inserted: the map's order stays oldest first
      lastActive.set(key, at);
      continue;
    }
    const outcome = ENDING[kind];
    if (!outcome) continue;
    const job = jobs.get(key) ?? {};
    const processedOn = numberOf(job.processedOn);
    const activeAt = lastActive.get(key);
    lastActive.delete(key);
    const startedAt = activeAt ??
      (processedOn !== null && processedOn <= at && outcome !== "cancelled" &&
          outcome !== "expired"
        ? processedOn
        : null);
    const finishedOn = numberOf(job.finishedOn);
    const endedAt = outcome !== "retrying" && finishedOn !== null ? finishedOn : at;
    // A retrying entry names the attempt that comes next.
    const attempt = outcome === "retrying"
      ? (numberOf(event.fields.attempt) ?? 2) - 1
      : numberOf(job.attempt) ?? 1;
    const failing = outcome === "retrying" || outcome === "failed";
    const ownError = failing && lastFailure.get(key) === event.id ? job.error ?? null : null;
    const error = boundedError(outcome === "cancelled" ? event.fields.reason ?? null : ownError);
    const entry: HistoryEntry = {
      task: event.task,
      id: jobId,
      event: event.id,
      attempt,
      outcome,
      version: numberOf(job._v),
      createdAt: numberOf(job.ts) ?? at,
      startedAt,
      endedAt,
      error,
      errorShape: error === null ? null : errorPattern(error),
    };
    const dataBytes = numberOf(job.dataBytes);
    const resultBytes = numberOf(job.resultBytes);
    if (dataBytes !== null) entry.dataBytes = dataBytes;
    if (resultBytes !== null && outcome === "completed") entry.resultBytes = resultBytes;
    if (redact && job.data !== undefined) entry.data = storedPayload(job.data, redact);
    if (redact && job.result !== undefined && outcome === "completed") {
      entry.result = storedPayload(job.result, redact);
    }
    entries.push(entry);
  }
  return entries;
}

/** Records batches of task events into the history. */
export interface Recorder {
  /**
   * Reads the ending jobs of `events` (one read per job), writes their
   * entries with `cursors` (the feed's last ids after `events`) in one
   * write; returns how many entries were new.
   */
  record(
    events: readonly TaskEvent[],
    cursors: Readonly<Record<string, string>>,
  ): Promise<{ recorded: number }>;
}

/** Makes a recorder writing to `options.store`. */
export function createRecorder(options: RecorderOptions): Recorder {
  const starts = new Map<string, number>();
  return {
    async record(events, cursors) {
      const refs = new Map<string, JobRef>();
      for (const event of events) {
        const jobId = event.fields.jobId;
        if (jobId && ENDING[event.fields.event]) {
          refs.set(jobKey(event.task, jobId), { task: event.task, jobId });
        }
      }
      const read = await options.read([...refs.values()], options.redact !== undefined);
      const jobs = new Map([...refs.keys()].map((key, i) => [key, read[i]]));
      const entries = entriesOf(events, jobs, options.redact, starts);
      // Bounded: a job whose end never comes (trimmed from the stream) is forgotten, oldest first.
      for (const key of starts.keys()) {
        if (starts.size <= MAX_CARRIED_STARTS) break;
        starts.delete(key);
      }
      return await options.store.write({ entries, cursors });
    },
  };
}
