/**
 * The jobs of a bulk filter selection, read as the search reads them: slice
 * by slice through {@link TaskSource.searchJobs}, each slice's candidates
 * checked on their presented value (`job_match.ts`). The dry run counts
 * them with one walk; the operation acts on each slice's matches before it
 * reads the next.
 *
 * @module
 */

import { sliceJobsOf, timeFieldOf } from "../contract/job_filter.ts";
import type { Presenter } from "../contract/present.ts";
import { BoardError } from "../errors.ts";
import type { SearchPosition, TaskSource } from "../source/types.ts";
import type { FilterSelection } from "./selector.ts";
import { matchesOf } from "../search/job_match.ts";

/** One slice of a filter selection: the ids that match, and where the next slice starts. */
export interface MatchSlice {
  /** Ids of the jobs of the slice that match. */
  ids: string[];
  /** Jobs the slice looked at. */
  scanned: number;
  /** Jobs of the range the walk covers (the state, or its time range). */
  total: number;
  /** Where the next slice starts; null at the end of the range. */
  next: SearchPosition | null;
}

/** Reads one slice of a filter selection's matches from `position` (null: the start). */
export type MatchReader = (position: SearchPosition | null) => Promise<MatchSlice>;

/** The reader of `selection`'s matches; `INVALID_STATE` when the source cannot search. */
export function matchReader(
  source: TaskSource,
  present: Presenter,
  selection: FilterSelection,
): MatchReader {
  if (!source.searchJobs) {
    throw new BoardError(
      "INVALID_STATE",
      "This task source cannot search jobs: a bulk action on a filter is off here",
    );
  }
  const search = source.searchJobs.bind(source);
  const { task, state, filter } = selection;
  const want = sliceJobsOf(filter);
  return async (position) => {
    const slice = await search(task, state, filter, position, want);
    const ids = matchesOf(filter, slice, present).map((job) => job.id);
    return { ids, scanned: slice.scanned, total: slice.total, next: slice.next };
  };
}

/**
 * Reads the first slice now: the range's size, and a reader that starts
 * from the slice read rather than reading it again.
 */
export async function firstSlice(
  read: MatchReader,
): Promise<{ total: number; matches: MatchReader }> {
  const first = await read(null);
  return {
    total: first.total,
    matches: (position) => position === null ? Promise.resolve(first) : read(position),
  };
}

/**
 * Whether the range is itself the answer: a time range on a finished state
 * (the set's scores) and nothing to check job by job.
 */
function countedByRange({ state, filter }: FilterSelection): boolean {
  return timeFieldOf(state) === "finished" && filter.idPrefix === null && filter.payload === null;
}

/**
 * How many jobs match now: the range's size when that is exact, else one
 * walk of the range, stopped early (its count then partial) once `signal`
 * aborts (the client went away).
 */
export async function countMatches(
  read: MatchReader,
  selection: FilterSelection,
  signal: AbortSignal,
): Promise<number> {
  let slice = await read(null);
  if (countedByRange(selection)) return slice.total;
  let count = slice.ids.length;
  while (slice.next !== null && !signal.aborted) {
    slice = await read(slice.next);
    count += slice.ids.length;
  }
  return count;
}
