/**
 * The history's store: the port every history adapter (Redis under the
 * board's root, PostgreSQL, memory) implements, and the checks of what it is
 * asked that all of them share.
 *
 * Writes are idempotent: an entry is named by its task, job and the event
 * that reported it, so the same batch written twice (by a leader that died
 * before it learnt the write landed, then by the next) changes nothing. A
 * batch carries the change feed's last ids, saved in the same write, so the
 * next leader resumes where the written history ends.
 *
 * @module
 */

import { BoardError } from "../errors.ts";
import {
  type BacklogSample,
  MAX_ROLLUP_POINTS,
  type Resolution,
  RESOLUTION_MS,
  type RollupPoint,
  type RollupScope,
} from "./rollup.ts";
import type { AttemptOutcome, HistoryEntry, JobSummary } from "./summary.ts";

/** One write: entries, samples and the feed's last ids, applied together. */
export interface HistoryBatch {
  /** Attempts that ended. */
  entries: readonly HistoryEntry[];
  /** Backlog samples. */
  samples?: readonly BacklogSample[];
  /** The change feed's last id per stream after this batch (`stream → id`). */
  cursors?: Readonly<Record<string, string>>;
}

/** What a search asks for; every field narrows it. */
export interface HistorySearch {
  /** One task, or every task. */
  task?: string;
  /** Jobs whose last attempt ended so. */
  states?: readonly AttemptOutcome[];
  /** Jobs whose last attempt ended at or after, ms. */
  from?: number;
  /** Jobs whose last attempt ended before, ms. */
  to?: number;
  /** Jobs whose last attempt ran on this version. */
  version?: number;
  /** Jobs with an attempt whose error contains this text (case-insensitive). */
  errorText?: string;
  /** Jobs whose id starts so. */
  idPrefix?: string;
  /** The most summaries to return (1–{@link MAX_SEARCH_LIMIT}, default 50). */
  limit?: number;
  /** Where the last page stopped (its `next`). */
  cursor?: string;
}

/** A page of a search, newest first. */
export interface HistoryPage {
  /** The summaries found. */
  summaries: JobSummary[];
  /**
   * Where to go on, or null when nothing is left. A page may be shorter than
   * its limit and still have a `next`: a store looks at a bounded number of
   * jobs per call.
   */
  next: string | null;
}

/** A rollup read. */
export interface RollupQuery extends RollupScope {
  /** How fine. */
  resolution: Resolution;
  /** From (inclusive), ms. */
  from: number;
  /** To (exclusive), ms. */
  to: number;
}

/** What the caps (not the age limit) dropped: how many summaries, and the newest end among them. */
export interface HistoryCut {
  /** How many summaries. */
  dropped: number;
  /** The newest end among them, ms: the history is whole after it. */
  newestDroppedAt: number;
}

/** What the history holds. */
export interface HistoryHolding {
  /** How many job summaries. */
  summaries: number;
  /** When the oldest one's last attempt ended, ms, or null when empty. */
  oldestAt: number | null;
  /** Set once a cap dropped summaries. "History stops at its cap and says so." */
  capped: HistoryCut | null;
}

/** How much a history keeps. */
export interface HistoryLimits {
  /** Summaries older than this are dropped, ms (default 7 days). */
  retentionMs: number;
  /** The most summaries in all (default 1,000,000). */
  maxSummaries: number;
  /** The most summaries of one task (default: {@link HistoryLimits.maxSummaries}). */
  maxPerTask: number;
}

/** The defaults: 7 days or 1M summaries, whichever comes first. */
export const DEFAULT_HISTORY_LIMITS: Readonly<HistoryLimits> = {
  retentionMs: 7 * 86_400_000,
  maxSummaries: 1_000_000,
  maxPerTask: 1_000_000,
};

/** The most summaries one search returns. */
export const MAX_SEARCH_LIMIT = 200;

/** The longest error text or id prefix a search takes. */
export const MAX_SEARCH_TEXT = 200;

/**
 * How many jobs one search call of a store that keeps them outside the
 * process looks at, at most (its window's newest past the cursor, matching
 * or not): what one call costs is bounded whatever the filters.
 */
export const SEARCH_BUDGET = 2000;

/**
 * The most tasks {@link HistoryStore.tasksOfJob} names: taskora names a
 * job by a UUID unless its dispatcher chose the id, so one id is one task's,
 * or a few.
 */
export const MAX_TASKS_OF_JOB = 100;

/** The job history's store. */
export interface HistoryStore {
  /** Writes a batch; returns how many entries were new. Idempotent. */
  write(batch: HistoryBatch): Promise<{ recorded: number }>;
  /** The change feed's last ids, as the last batch saved them. */
  cursors(): Promise<Record<string, string>>;
  /** One job's summary, or null. */
  summary(task: string, id: string): Promise<JobSummary | null>;
  /**
   * The tasks whose summaries hold a job `id`, sorted, at most
   * {@link MAX_TASKS_OF_JOB}: one read of an index by id, whatever the number
   * of tasks, so a job known by its id alone is found without a read per task.
   */
  tasksOfJob(id: string): Promise<string[]>;
  /** Summaries matching `query`, newest first, one bounded page. */
  search(query: HistorySearch): Promise<HistoryPage>;
  /** A rollup's buckets in `[from, to)` that hold something, oldest first. */
  rollups(query: RollupQuery): Promise<RollupPoint[]>;
  /**
   * Indexes by job id a bounded batch of the summaries written before the
   * store kept that index (a Redis history of a board before it); true while
   * some are left. The leader calls it once a pass until it says none are.
   */
  indexJobIds(): Promise<boolean>;
  /** Drops what is past the age limit or over a cap, and old rollups; returns how many summaries went. */
  trim(now: number): Promise<{ removed: number }>;
  /** What it holds. */
  holding(): Promise<HistoryHolding>;
  /**
   * What the caps dropped of each task that still has summaries (of `task`
   * only, when given), by task: a task no cap cut is absent. So a reader
   * says what a cap cut of the tasks it may see, and nothing of the others.
   */
  cuts(task?: string): Promise<Map<string, HistoryCut>>;
  /** Lets go of connections. */
  close(): Promise<void>;
}

/** `cut` added to `into` (null: nothing yet). */
export function addCut(into: HistoryCut | null, cut: HistoryCut): HistoryCut {
  return {
    dropped: (into?.dropped ?? 0) + cut.dropped,
    newestDroppedAt: Math.max(into?.newestDroppedAt ?? 0, cut.newestDroppedAt),
  };
}

/** Fills in the limits not given, refusing ones that are not positive whole numbers. */
export function historyLimits(given: Partial<HistoryLimits> = {}): HistoryLimits {
  const maxSummaries = given.maxSummaries ?? DEFAULT_HISTORY_LIMITS.maxSummaries;
  const limits: HistoryLimits = {
    retentionMs: given.retentionMs ?? DEFAULT_HISTORY_LIMITS.retentionMs,
    maxSummaries,
    maxPerTask: given.maxPerTask ?? maxSummaries,
  };
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isSafeInteger(value) || value <= 0) {
      throw new BoardError("INVALID_PARAM", `history.${name} must be a positive whole number`, {
        param: `history.${name}`,
      });
    }
  }
  return limits;
}

/** The states a search may ask for. */
const SEARCHABLE_STATES: ReadonlySet<string> = new Set<AttemptOutcome>([
  "retrying",
  "completed",
  "failed",
  "expired",
  "cancelled",
]);

function invalid(param: string, message: string): BoardError {
  return new BoardError("INVALID_PARAM", `${param} ${message}`, { param });
}

/** A search checked and its limit filled in; a bad field is a 400 naming it. */
export function checkedSearch(query: HistorySearch): HistorySearch & { limit: number } {
  const limit = query.limit ?? 50;
  const unknown = query.states?.find((state) => !SEARCHABLE_STATES.has(state));
  if (unknown !== undefined) {
    throw invalid(
      "states",
      `holds ${JSON.stringify(unknown)}: one of ${[...SEARCHABLE_STATES].join(", ")}`,
    );
  }
  if (query.version !== undefined && !Number.isSafeInteger(query.version)) {
    throw invalid("version", "must be a whole number");
  }
  for (const field of ["from", "to"] as const) {
    if (query[field] !== undefined && !Number.isSafeInteger(query[field])) {
      throw invalid(field, "must be a time in whole ms");
    }
  }
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) {
    throw invalid("limit", `must be a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
  }
  for (const field of ["errorText", "idPrefix"] as const) {
    const text = query[field];
    if (text !== undefined && (text.length === 0 || text.length > MAX_SEARCH_TEXT)) {
      throw invalid(field, `must be 1 to ${MAX_SEARCH_TEXT} characters`);
    }
  }
  if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
    throw invalid("from", "must not be after to");
  }
  if (query.cursor !== undefined) decodeCursor(query.cursor);
  return { ...query, limit };
}

/** A rollup query checked: a range of at most {@link MAX_ROLLUP_POINTS} buckets. */
export function checkedRollupQuery(query: RollupQuery): RollupQuery {
  if (!(query.resolution in RESOLUTION_MS)) {
    throw invalid("resolution", "must be minute, hour or day");
  }
  if (!Number.isFinite(query.from) || !Number.isFinite(query.to) || query.from >= query.to) {
    throw invalid("from", "must be before to");
  }
  if ((query.to - query.from) / RESOLUTION_MS[query.resolution] > MAX_ROLLUP_POINTS) {
    throw invalid("resolution", `gives more than ${MAX_ROLLUP_POINTS} buckets over that range`);
  }
  if (query.version !== undefined && query.task === undefined) {
    throw invalid("version", "needs a task");
  }
  return query;
}

/** Where a search page stopped: the last summary's end, task and id (newest first). */
export interface SearchPosition {
  /** Its last attempt's end, ms. */
  at: number;
  /** Its task. */
  task: string;
  /** Its id. */
  id: string;
}

/**
 * A position as a cursor string: its JSON's UTF-8 bytes in base64 (`btoa`
 * alone takes Latin-1 only, and a task's name or a job's id may be in any
 * script).
 */
export function encodeCursor(position: SearchPosition): string {
  const bytes = new TextEncoder().encode(JSON.stringify([position.at, position.task, position.id]));
  return btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(""));
}

/** A cursor read back; a cursor no store wrote is a 400. */
export function decodeCursor(cursor: string): SearchPosition {
  try {
    const bytes = Uint8Array.from(atob(cursor), (char) => char.charCodeAt(0));
    const [at, task, id] = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (Number.isSafeInteger(at) && typeof task === "string" && typeof id === "string") {
      return { at, task, id };
    }
  } catch {
    // answered below
  }
  throw invalid("cursor", "is not one a search returned");
}

/**
 * Whether a summary comes after `position` in a search's order: newest
 * first, then by task and id, both descending (the order of a sorted set
 * read backwards, which the Redis store pages through), so every store pages alike.
 */
export function isAfter(summary: SearchPosition, position: SearchPosition): boolean {
  if (summary.at !== position.at) return summary.at < position.at;
  if (summary.task !== position.task) return summary.task < position.task;
  return summary.id < position.id;
}

/** Orders summaries as a search returns them. */
export function searchOrder(a: SearchPosition, b: SearchPosition): number {
  return isAfter(a, b) ? 1 : isAfter(b, a) ? -1 : 0;
}

/** Whether a summary matches every field of a search but the page's. */
export function matches(summary: JobSummary, query: HistorySearch): boolean {
  if (query.task !== undefined && summary.task !== query.task) return false;
  if (query.states !== undefined && !query.states.includes(summary.state)) return false;
  if (query.from !== undefined && summary.finishedAt < query.from) return false;
  if (query.to !== undefined && summary.finishedAt >= query.to) return false;
  if (query.version !== undefined && summary.version !== query.version) return false;
  if (query.idPrefix !== undefined && !summary.id.startsWith(query.idPrefix)) return false;
  if (query.errorText !== undefined) {
    const text = query.errorText.toLowerCase();
    if (!summary.attempts.some((attempt) => attempt.error?.toLowerCase().includes(text))) {
      return false;
    }
  }
  return true;
}
