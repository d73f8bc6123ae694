/**
 * One slice of a job search over a task held in memory: the same bounds as
 * the Redis source's (at most `sliceJobsOf(filter)` jobs a slice, fields over
 * `MAX_SEARCHED_FIELD_BYTES` skipped, the newest `SEARCHED_LOG_ENTRIES`
 * log entries), with no prefilter: every job that passes the time range
 * and the id prefix is a candidate, and the caller's match decides.
 *
 * @module
 */

import {
  type JobFilter,
  MAX_SEARCHED_FIELD_BYTES,
  SEARCHED_LOG_ENTRIES,
  sliceJobsOf,
  timeFieldOf,
} from "../../contract/job_filter.ts";
import type { JobRow, JobState, SearchCandidate, SearchPosition, SearchSlice } from "../types.ts";
import type { StoredJob, TaskQueue } from "./store.ts";

const encoder = new TextEncoder();

/** Bytes of a field as Redis would store it (a string error as itself, anything else as JSON). */
export function storedBytes(value: unknown): number {
  return encoder.encode(typeof value === "string" ? value : JSON.stringify(value) ?? "").length;
}

function inRange(filter: JobFilter, at: number | null | undefined): boolean {
  if (filter.from === null && filter.to === null) return true;
  return typeof at === "number" && (filter.from === null || at >= filter.from) &&
    (filter.to === null || at <= filter.to);
}

/**
 * A slice of the jobs `ids` (the state's, in list order) of `queue`. A time
 * range on a finished state narrows the range (and its total) by the set's
 * score, as ZCOUNT and ZREVRANGEBYSCORE do; on other states it is checked
 * on each job's created time.
 */
export function searchQueue(
  queue: TaskQueue,
  state: JobState,
  ids: Iterable<string>,
  toRow: (job: StoredJob) => JobRow,
  filter: JobFilter,
  position: SearchPosition | null,
  want: number,
): SearchSlice {
  const finished = timeFieldOf(state) === "finished";
  const range: string[] = finished
    ? [...ids].filter((id) =>
      inRange(filter, queue.finished[state as keyof TaskQueue["finished"]].score(id))
    )
    : [...ids];
  const score = (id: string) => queue.finished[state as keyof TaskQueue["finished"]].score(id) ?? 0;
  const start = startOf(range, position, finished ? score : null);
  const field = filter.payload?.field;
  const candidates: SearchCandidate[] = [];
  const base = position?.scanned ?? 0;
  // Where a search stopping after each job continues: an index, or the score run it ends.
  let run = finished && position !== null ? { at: position.at, skip: position.skip } : null;
  let looked = 0;
  let skipped = 0;
  for (const id of range.slice(start, start + sliceJobsOf(filter))) {
    // Without a payload condition, stop at `want`; with one, look at the whole slice,
    // so how far it gets never depends on what a payload holds.
    if (filter.payload === null && candidates.length >= want) break;
    looked++;
    if (finished) {
      const at = score(id);
      run = run !== null && run.at === at ? { at, skip: run.skip + 1 } : { at, skip: 1 };
    }
    const after = { ...(run ?? { at: start + looked, skip: 0 }), scanned: base + looked };
    const job = queue.jobs.get(id);
    if (!job || (filter.idPrefix !== null && !id.startsWith(filter.idPrefix))) continue;
    if (!finished && !inRange(filter, job.createdAt)) continue;
    if (field === undefined) {
      candidates.push({ job: toRow(job), after, skippedBefore: skipped });
      continue;
    }
    const value = field === "logs" ? job.logs.slice(-SEARCHED_LOG_ENTRIES) : job[field];
    if (value === null || value === undefined) continue;
    if (field !== "logs" && storedBytes(value) > MAX_SEARCHED_FIELD_BYTES) {
      skipped++;
      continue;
    }
    candidates.push({ job: toRow(job), value, after, skippedBefore: skipped });
  }
  const end = start + looked;
  return {
    candidates,
    scanned: looked,
    skipped,
    total: range.length,
    next: end >= range.length ? null : { ...(run ?? { at: end, skip: 0 }), scanned: base + looked },
  };
}

/**
 * Where a slice of `range` starts: an index, or (finished states, newest
 * first) after the members scored above `position.at` and the first
 * `position.skip` of those scored at it, as ZREVRANGEBYSCORE … LIMIT does.
 */
function startOf(
  range: readonly string[],
  position: SearchPosition | null,
  score: ((id: string) => number) | null,
): number {
  if (position === null) return 0;
  if (score === null) return position.at;
  let index = 0;
  while (index < range.length && score(range[index]) > position.at) index++;
  return index + position.skip;
}
