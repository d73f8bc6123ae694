/**
 * Parsing a {@link JobFilter} and a search cursor from a query string, with a
 * 400 `INVALID_PARAM` that names the parameter. One module for every route
 * that acts on "the jobs matching this filter" (the search stream, bulk
 * actions), so they all read a filter the same way.
 *
 * Parameters: `from`, `to` (epoch ms, or an ISO 8601 date or date-time with
 * a zone), `id` (id prefix), `field` (data, result, error, logs) with either
 * `contains` or `path` + `value`; `cursor` (from an `end` frame).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJobFilter } from "./job_filter.ts";
 * const query = new URLSearchParams("field=data&path=user.id&value=42");
 * assert.deepEqual(parseJobFilter((name) => query.get(name) ?? undefined, ["token"]), {
 *   from: null,
 *   to: null,
 *   idPrefix: null,
 *   payload: { field: "data", path: ["user", "id"], value: "42" },
 *   masked: ["token"],
 * });
 * ```
 *
 * @module
 */

import {
  type JobFilter,
  MAX_ID_PREFIX_CHARS,
  MAX_NEEDLE_CHARS,
  MAX_PATH_DEPTH,
  type PayloadCondition,
  SEARCH_FIELDS,
  type SearchField,
} from "../contract/job_filter.ts";
import type { JobState } from "../contract/states.ts";
import { invalidParam } from "../errors.ts";
import type { SearchPosition } from "../source/types.ts";

/** Reads one query parameter. */
export type QueryReader = (name: string) => string | undefined;

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/** Parses a time: epoch ms digits, or ISO 8601 (a date-time needs its zone, so it is not read in the server's). */
export function parseTime(name: string, raw: string): number {
  if (/^\d{1,15}$/.test(raw)) return Number(raw);
  const parts = ISO.exec(raw);
  const ms = parts ? Date.parse(raw) : NaN;
  // Date.parse would roll 2026-02-30 over into March: the day must exist.
  const day = parts ? new Date(Date.UTC(+parts[1], +parts[2] - 1, +parts[3])) : null;
  if (
    !parts || Number.isNaN(ms) || day!.getUTCMonth() !== +parts[2] - 1 ||
    day!.getUTCDate() !== +parts[3]
  ) {
    throw invalidParam(
      name,
      `must be epoch milliseconds or an ISO 8601 date or date-time with a zone, like ` +
        `2026-11-23 or 2026-11-23T10:00:00Z (got ${JSON.stringify(raw.slice(0, 64))})`,
    );
  }
  return ms;
}

function bounded(name: string, raw: string, max: number): string {
  if (raw.length > max) {
    throw invalidParam(name, `must be at most ${max} characters (got ${raw.length})`);
  }
  return raw;
}

/** Splits a dot path, refusing empty segments, too many of them, and keys the board redacts. */
function parsePath(raw: string, redact: readonly string[], prefix: string): string[] {
  const name = `${prefix}path`;
  const path = bounded(name, raw, MAX_NEEDLE_CHARS).split(".");
  if (path.length > MAX_PATH_DEPTH) {
    throw invalidParam(name, `must have at most ${MAX_PATH_DEPTH} segments (got ${path.length})`);
  }
  if (path.some((segment) => segment === "")) {
    throw invalidParam(
      name,
      `must be keys joined by dots, like user.id or items.0.sku (got "${raw}")`,
    );
  }
  const masked = new Set(redact.map((key) => key.toLowerCase()));
  const hidden = path.find((segment) => masked.has(segment.toLowerCase()));
  if (hidden !== undefined) {
    // Its values are masked on every page: a search must not reveal them either.
    throw invalidParam(name, `"${hidden}" is a redacted key: its values cannot be searched`);
  }
  return path;
}

function parsePayload(
  query: QueryReader,
  redact: readonly string[],
  prefix: string,
): PayloadCondition | null {
  const field = query("field") || undefined;
  const contains = query("contains") || undefined;
  const path = query("path") || undefined;
  const value = query("value");
  if (field === undefined) {
    const stray = contains !== undefined ? "contains" : path !== undefined ? "path" : null;
    if (stray) {
      throw invalidParam(
        `${prefix}field`,
        `is needed with ${stray}: one of ${SEARCH_FIELDS.join(", ")}`,
      );
    }
    return null;
  }
  if (!(SEARCH_FIELDS as readonly string[]).includes(field)) {
    throw invalidParam(
      `${prefix}field`,
      `must be one of ${SEARCH_FIELDS.join(", ")} (got "${field.slice(0, 64)}")`,
    );
  }
  const searched = field as SearchField;
  if (contains !== undefined) {
    if (path !== undefined) {
      throw invalidParam(`${prefix}path`, "cannot be given with contains: choose one");
    }
    return { field: searched, contains: bounded(`${prefix}contains`, contains, MAX_NEEDLE_CHARS) };
  }
  if (path === undefined) {
    throw invalidParam(`${prefix}contains`, "or path and value are needed with field");
  }
  if (value === undefined) {
    throw invalidParam(`${prefix}value`, "is needed with path (an empty value is value=)");
  }
  return {
    field: searched,
    path: parsePath(path, redact, prefix),
    value: bounded(`${prefix}value`, value, MAX_NEEDLE_CHARS),
  };
}

/**
 * Parses the filter of a job search from the query. `redact` is the board's
 * redaction keys: a key path through one of them is refused. `prefix` goes
 * before each parameter's name in a refusal (`selector.filter.` in a body).
 */
export function parseJobFilter(
  query: QueryReader,
  redact: readonly string[],
  prefix = "",
): JobFilter {
  const time = (name: string) => {
    const raw = query(name);
    return raw === undefined || raw === "" ? null : parseTime(`${prefix}${name}`, raw);
  };
  const from = time("from");
  const to = time("to");
  if (from !== null && to !== null && from > to) {
    throw invalidParam(
      `${prefix}to`,
      `must not be before from (${new Date(to).toISOString()} < ${new Date(from).toISOString()})`,
    );
  }
  const id = query("id");
  return {
    from,
    to,
    idPrefix: id === undefined || id === ""
      ? null
      : bounded(`${prefix}id`, id, MAX_ID_PREFIX_CHARS),
    payload: parsePayload(query, redact, prefix),
    masked: redact,
  };
}

/** Whether the filter keeps every job (no part set). */
export function isEmptyFilter(filter: JobFilter): boolean {
  return filter.from === null && filter.to === null && filter.idPrefix === null &&
    filter.payload === null;
}

/** The opaque cursor of a search position in a state's list. */
export function encodeCursor(state: JobState, position: SearchPosition): string {
  return btoa(`${state}|${position.at}|${position.skip}|${position.scanned}`)
    .replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Reads a cursor made by {@link encodeCursor} for the same state; null when absent. */
export function parseCursor(raw: string | undefined, state: JobState): SearchPosition | null {
  if (raw === undefined || raw === "") return null;
  const invalid = () =>
    invalidParam("cursor", "is not a cursor of this search (start it again without one)");
  let text: string;
  try {
    text = atob(raw.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    throw invalid();
  }
  const parts = text.split("|");
  const [at, skip, scanned] = parts.slice(1).map(Number);
  if (
    parts.length !== 4 || parts[0] !== state || !/^-?\d+(\.\d+)?$/.test(parts[1]) ||
    !Number.isSafeInteger(skip) || skip < 0 || !Number.isSafeInteger(scanned) || scanned < 0
  ) {
    throw invalid();
  }
  return { at, skip, scanned };
}
