/**
 * One slice of a job search: a single {@link SEARCH_SLICE} script call over
 * at most `sliceJobsOf(filter)` members of the state's list or set, matching in
 * Redis with a plain-text prefilter so only candidates (their row and the
 * one field searched) travel back. The prefilter sees the stored text,
 * secrets included, so a slice with a payload condition always looks at
 * the whole slice: how far it gets is the same whichever jobs pass; and a
 * job whose text may hold a masked key's value is a candidate whatever the
 * needle, so which jobs travel back never depends on what redaction hides.
 *
 * @module
 */

import {
  asciiLower,
  type JobFilter,
  MAX_SEARCHED_FIELD_BYTES,
  SEARCHED_LOG_ENTRIES,
  sliceJobsOf,
} from "../../contract/job_filter.ts";
import type { JobState, SearchCandidate, SearchPosition, SearchSlice } from "../types.ts";
import { decodeLogs, decodeRow, decodeValue } from "../wire/decode.ts";
import { type TaskKeys, taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { fieldsOf } from "./jobs.ts";
import { SEARCH_SLICE } from "./scripts.ts";

/** Bytes of fields one slice reads at most before it stops early. */
export const SLICE_BYTE_BUDGET = 2 * 1024 * 1024;

type Entry = [
  id: string,
  score: string,
  flat: string[],
  raw: string | string[] | null,
  afterAt: string,
  afterSkip: number,
  index: number,
  skippedBefore: number,
];

/**
 * What the script looks for in the stored text: the needle as typed and as
 * it is escaped inside a JSON string (a quote, a backslash, a newline), so
 * the prefilter never drops a job the exact match would keep. For a key
 * path that holds because the match (`valueAtPath`) only ever reaches a
 * string, number, boolean or null stored in the text, never a property
 * such as an array's `length`.
 */
function needles(filter: JobFilter): [kind: string, a: string, b: string] {
  const condition = filter.payload;
  if (condition === null) return ["", "", ""];
  if ("contains" in condition) {
    const lower = asciiLower(condition.contains);
    return ["contains", lower, JSON.stringify(lower).slice(1, -1)];
  }
  return ["value", condition.value, JSON.stringify(condition.value).slice(1, -1)];
}

/**
 * The masked keys as the script looks for them in stored text: lowercased
 * and escaped as inside a JSON string (anywhere, not only as a key: more
 * candidates, never fewer). A key that is not ASCII cannot be found
 * by the script's `string.lower` as the board's redaction finds it, so then
 * every job is a candidate (the first argument, `1`).
 */
function maskedArgs(masked: readonly string[]): string[] {
  if (masked.length === 0) return ["0"];
  if (masked.some((key) => /\P{ASCII}/u.test(key))) return ["1"];
  return ["0", ...masked.map((key) => JSON.stringify(asciiLower(key)).slice(1, -1))];
}

function modeOf(state: JobState): { mode: string; key: keyof TaskKeys } {
  switch (state) {
    case "waiting":
      return { mode: "waiting", key: "wait" };
    case "active":
      return { mode: "list", key: "active" };
    case "delayed":
    case "retrying":
      return { mode: "delayed", key: "delayed" };
    default:
      return { mode: "finished", key: state };
  }
}

/** One slice of a search of `task`'s jobs in `state` (see `TaskSource.searchJobs`). */
export async function searchJobs(
  connection: RedisConnection,
  task: string,
  state: JobState,
  filter: JobFilter,
  position: SearchPosition | null,
  want: number,
  prefix?: string,
): Promise<SearchSlice> {
  const keys = taskKeys(task, prefix);
  const { mode, key } = modeOf(state);
  const field = filter.payload?.field ?? "";
  const [kind, a, b] = needles(filter);
  // Where every member is a match (a time range on a finished set, or no filter), reading
  // `want` members is enough: the page costs O(log n + want).
  const everyOne = filter.payload === null && filter.idPrefix === null &&
    (mode === "finished" || (mode !== "delayed" && filter.from === null && filter.to === null));
  const budget = everyOne ? Math.min(want, sliceJobsOf(filter)) : sliceJobsOf(filter);
  const [total, looked, skipped, nextAt, nextSkip, ...entries] = await connection.call<
    [number, number, number, string, number, ...Entry[]]
  >({
    script: SEARCH_SLICE,
    keys: [keys[key], keys.prioritized],
    args: [
      keys.jobPrefix,
      mode,
      state,
      position === null ? "" : String(position.at),
      String(position?.skip ?? 0),
      String(budget),
      String(want),
      filter.from === null ? "" : String(filter.from),
      filter.to === null ? "" : String(filter.to),
      filter.idPrefix ?? "",
      field,
      kind,
      a,
      b,
      String(MAX_SEARCHED_FIELD_BYTES),
      String(SLICE_BYTE_BUDGET),
      String(SEARCHED_LOG_ENTRIES),
      ...maskedArgs(filter.masked),
    ],
  });
  const waitsToRun = state === "delayed" || state === "retrying";
  const base = position?.scanned ?? 0;
  const candidates = entries.map((entry): SearchCandidate => {
    const [id, score, flat, raw, afterAt, afterSkip, index, skippedBefore] = entry;
    const fields = fieldsOf(flat);
    fields.state ??= state;
    const job = decodeRow(task, id, fields, waitsToRun ? Number(score) : null);
    const after = { at: Number(afterAt), skip: afterSkip, scanned: base + index };
    const found = { job, after, skippedBefore };
    if (field === "") return found;
    if (field === "logs") return { ...found, value: decodeLogs(raw as string[]) };
    return { ...found, value: field === "error" ? raw : decodeValue(raw as string) };
  });
  const scanned = base + looked;
  return {
    candidates,
    scanned: looked,
    skipped,
    total,
    next: nextAt === "" ? null : { at: Number(nextAt), skip: nextSkip, scanned },
  };
}
