/**
 * Finding jobs on a task's state tab: the filter (time range, id prefix, one
 * condition on a payload), the frames of the search stream
 * (`GET /tasks/{task}/jobs/search`), and the bounds the server holds a
 * search to. The UI builds its form and its URL from these; a bulk action on
 * "every job matching this filter" parses the same query string.
 *
 * @module
 */

import type { JobResponse } from "./jobs.ts";

/** A job field a payload condition can look into. */
export type SearchField = "data" | "result" | "error" | "logs";

/** Every {@link SearchField}, in the order the form offers them. */
export const SEARCH_FIELDS: readonly SearchField[] = ["data", "result", "error", "logs"];

/**
 * A parameter a filter is written with, in the search's URL and in a bulk
 * selector: `id` (prefix), `from`, `to`, `field` with `contains` or
 * `path` + `value`.
 */
export type JobFilterParam = "id" | "from" | "to" | "field" | "contains" | "path" | "value";

/** Every {@link JobFilterParam}, in the order a URL carries them. */
export const JOB_FILTER_PARAMS: readonly JobFilterParam[] = [
  "id",
  "from",
  "to",
  "field",
  "contains",
  "path",
  "value",
];

/** A filter as those parameters give it: `{ field: "error", contains: "timeout" }`. */
export type JobFilterQuery = Partial<Record<JobFilterParam, string>>;

/** Most segments a key path may have. */
export const MAX_PATH_DEPTH = 16;

/** Longest key path, value or substring (characters). */
export const MAX_NEEDLE_CHARS = 256;

/** Longest id prefix (characters). */
export const MAX_ID_PREFIX_CHARS = 200;

/** Most jobs one slice of a search looks at (one Redis call). */
export const SLICE_JOBS = 1000;

/**
 * Jobs one slice looks at when it reads a field of each: reading costs
 * Redis about ten times what the id and time checks do (see
 * `tests/bench/search.ts`), so a quarter of {@link SLICE_JOBS} keeps each
 * call to a few ms.
 */
export const PAYLOAD_SLICE_JOBS = 250;

/** A field larger than this (bytes as stored) is not searched; the frames count it as skipped. */
export const MAX_SEARCHED_FIELD_BYTES = 256 * 1024;

/** How many of a job's newest log entries a `logs` condition looks at. */
export const SEARCHED_LOG_ENTRIES = 100;

/** Matches a search page holds at most (the `limit` parameter, default 50). */
export const MAX_SEARCH_PAGE = 200;

/**
 * One condition on a job's payload:
 * - `contains`: the value's text (a string as it is, anything else as
 *   compact JSON; for `logs`, any of the entries) holds the substring,
 *   ignoring ASCII case;
 * - `path` + `value`: the value at the dot path (see {@link valueAtPath})
 *   is the string `value`, or a number, boolean or null written as `value`.
 *
 * Matching is on what the board shows: the value formatted and redacted.
 */
export type PayloadCondition =
  | { field: SearchField; contains: string }
  | { field: SearchField; path: string[]; value: string };

/**
 * Which jobs of a state to find. Every part is optional; the parts that are
 * set must all hold.
 *
 * The time range is inclusive, in ms. For finished states (completed,
 * failed, cancelled, expired) it is on the finish time, which scores their
 * sets, so a range costs O(log n) to find; for the other states on the
 * created time (`ts`), looked at job by job.
 */
export interface JobFilter {
  /** Earliest time, ms; null for no bound. */
  from: number | null;
  /** Latest time, ms; null for no bound. */
  to: number | null;
  /** The start of the job id; null for any. */
  idPrefix: string | null;
  /** A condition on a payload; null for none. */
  payload: PayloadCondition | null;
  /**
   * The board's redaction keys: a source that prefilters on stored text
   * must not let what they hide decide which jobs are candidates, or the
   * work a search does (its time, what it returns) would tell a guess of a
   * secret right from a wrong one.
   */
  masked: readonly string[];
}

/** Where a search stands: sent every slice or so, and when it stops. */
export interface SearchProgress {
  /** Jobs looked at so far (since the search began, across continues). */
  scanned: number;
  /** How many jobs the scanned range holds (the state, or its time range). */
  total: number;
  /** Matches sent by this request. */
  found: number;
  /** Jobs whose searched field was too big to search ({@link MAX_SEARCHED_FIELD_BYTES}). */
  skipped: number;
}

/**
 * One line of the search stream (NDJSON): progress as the scan goes, each
 * match as it is found, and one last `end` (or `error`) line.
 */
export type SearchFrame =
  | ({ type: "progress" } & SearchProgress)
  | { type: "match"; job: JobResponse }
  | ({
    type: "end";
    /** The cursor that continues the search, or null when the range is done. */
    cursor: string | null;
    /** `page`: a page of matches was found; `done`: the whole range is scanned. */
    reason: "page" | "done";
  } & SearchProgress)
  | { type: "error"; error: string; code: string };

/** Lower-cases A-Z only, as Redis's Lua `string.lower` does, so both sources match alike. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** How many jobs one slice of a search with this filter looks at. */
export function sliceJobsOf(filter: JobFilter): number {
  return filter.payload === null ? SLICE_JOBS : PAYLOAD_SLICE_JOBS;
}

/** The time-range meaning for a state: the finish time (indexed) or the created time. */
export function timeFieldOf(state: string): "finished" | "created" {
  return state === "completed" || state === "failed" || state === "cancelled" ||
      state === "expired"
    ? "finished"
    : "created";
}

/** A key that names an array item: its index in decimal digits. */
const INDEX = /^\d+$/;

/**
 * The value at a key path, or undefined when the path names nothing: each
 * key steps into an object's own key, or into an array's item by its index
 * (a key that is not an index, `length` included, names nothing in an
 * array); a string, number, boolean or null has no keys. Every search and
 * every source uses this one meaning. Walked in a loop: user data is never
 * recursed into.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { valueAtPath } from "./job_filter.ts";
 * assert.deepEqual(valueAtPath({ tags: ["a", "b"] }, ["tags", "1"]), "b");
 * assert.deepEqual(valueAtPath({ tags: ["a", "b"] }, ["tags", "length"]), undefined);
 * ```
 */
export function valueAtPath(root: unknown, path: readonly string[]): unknown {
  let current = root;
  for (const key of path) {
    if (Array.isArray(current)) {
      if (!INDEX.test(key)) return undefined;
      current = current[Number(key)];
    } else if (current !== null && typeof current === "object" && Object.hasOwn(current, key)) {
      current = (current as Record<string, unknown>)[key];
    } else return undefined;
  }
  return current;
}
