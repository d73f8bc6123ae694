/**
 * Cleaning finished jobs: removing the jobs of a finished state that
 * finished before a cutoff, in batches.
 *
 * @module
 */

import { invalidParam } from "../../errors.ts";
import { FINISHED_STATES, type FinishedState } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import { CLEAN_BATCH, CLEAN_FINISHED } from "./action_scripts.ts";
import type { Command, RedisConnection } from "./client.ts";

/** Batch script calls sent per round trip. */
const CALLS_PER_ROUND_TRIP = 10;

/**
 * Removes the `state` jobs of `task` that finished more than `olderThanMs`
 * ago (0: all of them): set entry, hash, `:logs` and `:lock`, as taskora's
 * CLEAN_JOBS does. {@link CLEAN_BATCH} jobs per script call, ten calls per
 * round trip; the number of calls is fixed by a ZCOUNT taken first. Returns
 * how many jobs were removed.
 */
export async function cleanJobs(
  connection: RedisConnection,
  task: string,
  state: FinishedState,
  olderThanMs: number,
  prefix?: string,
): Promise<number> {
  if (!(FINISHED_STATES as readonly string[]).includes(state)) {
    throw invalidParam("state", `${state} is not one of ${FINISHED_STATES.join(", ")}`);
  }
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw invalidParam("olderThan", "must be a number of milliseconds, 0 or more");
  }
  const keys = taskKeys(task, prefix);
  const set = keys[state];
  const cutoff = olderThanMs === 0 ? "+inf" : String(Date.now() - olderThanMs);
  let left = await connection.call<number>(["ZCOUNT", set, "-inf", cutoff]);
  let removed = 0;
  while (left > 0) {
    const calls = Math.min(Math.ceil(left / CLEAN_BATCH), CALLS_PER_ROUND_TRIP);
    const batch: Command[] = Array.from({ length: calls }, () => ({
      script: CLEAN_FINISHED,
      keys: [set],
      args: [keys.jobPrefix, cutoff, CLEAN_BATCH],
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
