/**
 * Cleaning finished jobs: removing the jobs of a finished state that
 * finished before a cutoff, in batches.
 *
 * @module
 */

import type { FinishedState } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import { CLEAN_BATCH, CLEAN_FINISHED } from "./action_scripts.ts";
import type { Command, RedisConnection } from "./client.ts";

/** Batch script calls sent per round trip. */
const CALLS_PER_ROUND_TRIP = 10;

/** What a clean covers: the finished set, its job key prefix and the score cutoff. */
export interface CleanRange {
  set: string;
  jobPrefix: string;
  /** Jobs scored at or below it finished long enough ago (`+inf`: all of them). */
  cutoff: string;
}

/**
 * The range a clean of the `state` jobs of `task` that finished more than
 * `olderThanMs` ago (0: all of them) covers.
 */
export function cleanRange(
  task: string,
  state: FinishedState,
  olderThanMs: number,
  prefix?: string,
): CleanRange {
  const keys = taskKeys(task, prefix);
  return {
    set: keys[state],
    jobPrefix: keys.jobPrefix,
    cutoff: olderThanMs === 0 ? "+inf" : String(Date.now() - olderThanMs),
  };
}

/** How many jobs {@link cleanJobs} would remove now: one ZCOUNT. */
export async function countCleanable(
  connection: RedisConnection,
  { set, cutoff }: CleanRange,
): Promise<number> {
  return await connection.call<number>(["ZCOUNT", set, "-inf", cutoff]);
}

/**
 * Removes the jobs of a range: set entry, hash, `:logs` and `:lock`, as
 * taskora's CLEAN_JOBS does. {@link CLEAN_BATCH} jobs per script call, ten
 * calls per round trip; the number of calls is fixed by a ZCOUNT taken
 * first. Returns how many jobs were removed.
 */
export async function cleanJobs(connection: RedisConnection, range: CleanRange): Promise<number> {
  let left = await countCleanable(connection, range);
  let removed = 0;
  while (left > 0) {
    const calls = Math.min(Math.ceil(left / CLEAN_BATCH), CALLS_PER_ROUND_TRIP);
    const batch: Command[] = Array.from({ length: calls }, () => ({
      script: CLEAN_FINISHED,
      keys: [range.set],
      args: [range.jobPrefix, range.cutoff, CLEAN_BATCH],
    }));
    const replies = (await connection.pipeline(batch)) as number[];
    for (const count of replies) {
      removed += count;
      left -= CLEAN_BATCH;
      if (count < CLEAN_BATCH) left = 0;
    }
  }
  return removed;
}
