/**
 * The start of a scan for a job filter, shared by the search stream and the
 * search export: a source that cannot search is `INVALID_STATE`, a scan
 * slot is taken, and the first slice is read before the answer starts (so
 * an unknown task is still a 404); the slot is given back if that fails.
 *
 * @module
 */

import type { Context } from "hono";
import type { SessionEnv } from "../auth/session.ts";
import type { UserEnv } from "../auth/user.ts";
import type { JobFilter } from "../contract/job_filter.ts";
import type { JobState } from "../contract/states.ts";
import { BoardError } from "../errors.ts";
import type { SearchPosition, SearchSlice, TaskSource } from "../source/types.ts";
import type { ResolvedOptions } from "../options.ts";
import { scanHolder } from "../scans/holder.ts";
import type { ScanSlots } from "../scans/slots.ts";

/** A started scan: its first slice, how to read the next, and how to give its slot back. */
export interface StartedSearch {
  /** The first slice. */
  slice: SearchSlice;
  /** Reads the slice at `position`. */
  search: NonNullable<TaskSource["searchJobs"]>;
  /** Gives the scan slot back (once the answer ends). */
  release(): void;
}

/** Takes a scan slot and reads the first slice of `filter` on the task's `state`. */
export async function startSearch(
  c: Context<SessionEnv & UserEnv>,
  { source, options, scans }: { source: TaskSource; options: ResolvedOptions; scans: ScanSlots },
  { task, state, filter, position, want }: {
    task: string;
    state: JobState;
    filter: JobFilter;
    position: SearchPosition | null;
    want: number;
  },
): Promise<StartedSearch> {
  if (!source.searchJobs) {
    throw new BoardError("INVALID_STATE", "This task source cannot search jobs");
  }
  const search = source.searchJobs.bind(source);
  const release = await scans.take(await scanHolder(c, options));
  try {
    return { slice: await search(task, state, filter, position, want), search, release };
  } catch (error) {
    release();
    throw error;
  }
}
