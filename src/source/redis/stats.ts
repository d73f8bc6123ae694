/**
 * Queue counts of many tasks at once: O(1) commands per task, one round
 * trip, whatever the size of the sets.
 *
 * @module
 */

import type { QueueStats } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection, ScriptCall } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * `counts(kept)`: the sizes of KEYS[1..8] = wait, prioritized, active,
 * delayed, completed, failed, expired, cancelled, in that order (the key
 * order of {@link countsCall}). Eight O(1) reads, less those `kept` (a
 * table of eight, nil or `''` where a size is to be read) gives: a size the
 * caller knows still holds is not read again.
 */
export const COUNTS_LUA = `
local function counts(kept)
  local function size(i, command)
    local given = kept and kept[i]
    if given and given ~= '' then return tonumber(given) end
    return redis.call(command, KEYS[i])
  end
  return {
    size(1, 'LLEN'), size(2, 'ZCARD'), size(3, 'LLEN'), size(4, 'ZCARD'),
    size(5, 'ZCARD'), size(6, 'ZCARD'), size(7, 'ZCARD'), size(8, 'ZCARD'),
  }
end
`;

/**
 * A task's eight counts ({@link COUNTS_LUA}) in one call, so a many-task
 * read sends one command per task rather than eight: the client's
 * per-command cost, not Redis, dominated its time. `no-writes` lets Redis
 * run it on a replica and during `CLIENT PAUSE WRITE`.
 */
export const QUEUE_COUNTS: LuaScript = {
  name: "queue-counts",
  source: `#!lua flags=no-writes
${COUNTS_LUA}
return counts()
`,
};

/** The key order of {@link COUNTS_LUA}. */
export function countKeys(task: string, prefix?: string): string[] {
  const keys = taskKeys(task, prefix);
  return [
    keys.wait,
    keys.prioritized,
    keys.active,
    keys.delayed,
    keys.completed,
    keys.failed,
    keys.expired,
    keys.cancelled,
  ];
}

/** The {@link QUEUE_COUNTS} call of one task. */
export function countsCall(task: string, prefix?: string): ScriptCall {
  return { script: QUEUE_COUNTS, keys: countKeys(task, prefix), args: [] };
}

/**
 * Turns a reply of {@link QUEUE_COUNTS} into counts. The delayed set
 * holds both `delayed` and `retrying` jobs; `retrying` is the caller's
 * figure (the in-memory split), clamped to the set's size, and `delayed`
 * the rest of the set.
 */
export function statsOf(replies: readonly unknown[], retrying: number): QueueStats {
  const [wait, prioritized, active, delayedSet, completed, failed, expired, cancelled] =
    replies as number[];
  const retry = Math.max(0, Math.min(retrying, delayedSet));
  return {
    waiting: wait + prioritized,
    active,
    delayed: delayedSet - retry,
    retrying: retry,
    failed,
    completed,
    cancelled,
    expired,
  };
}

/**
 * Counts per state for each task: one {@link QUEUE_COUNTS} call per task
 * (eight O(1) reads, no loop), all in one round trip. `retryingOf` gives
 * each task's retrying figure (see {@link statsOf}).
 */
export async function getStats(
  connection: RedisConnection,
  tasks: readonly string[],
  retryingOf: (task: string) => number,
  prefix?: string,
): Promise<Map<string, QueueStats>> {
  const unique = [...new Set(tasks)];
  const replies = await connection.pipeline(unique.map((task) => countsCall(task, prefix)));
  const stats = new Map<string, QueueStats>();
  unique.forEach((task, i) => stats.set(task, statsOf(replies[i] as number[], retryingOf(task))));
  return stats;
}
