/**
 * Queue counts of many tasks at once: O(1) commands per task, one round
 * trip, whatever the size of the sets.
 *
 * @module
 */

import type { QueueStats } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";

/** Commands per task in the pipeline. */
const PER_TASK = 8;

/**
 * The counting commands of one task: LLEN wait, ZCARD prioritized, LLEN
 * active, ZCARD delayed/completed/failed/expired/cancelled. Each is O(1).
 */
export function statsCommands(task: string, prefix?: string): Command[] {
  const keys = taskKeys(task, prefix);
  return [
    ["LLEN", keys.wait],
    ["ZCARD", keys.prioritized],
    ["LLEN", keys.active],
    ["ZCARD", keys.delayed],
    ["ZCARD", keys.completed],
    ["ZCARD", keys.failed],
    ["ZCARD", keys.expired],
    ["ZCARD", keys.cancelled],
  ];
}

/**
 * Turns the replies of {@link statsCommands} into counts. The delayed set
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
 * Counts per state for each task, in one pipeline of
 * {@link statsCommands}: 8 O(1) commands per task, no script. `retryingOf`
 * gives each task's retrying figure (see {@link statsOf}).
 */
export async function getStats(
  connection: RedisConnection,
  tasks: readonly string[],
  retryingOf: (task: string) => number,
  prefix?: string,
): Promise<Map<string, QueueStats>> {
  const unique = [...new Set(tasks)];
  const replies = await connection.pipeline(unique.flatMap((task) => statsCommands(task, prefix)));
  const stats = new Map<string, QueueStats>();
  unique.forEach((task, i) => {
    const own = replies.slice(i * PER_TASK, (i + 1) * PER_TASK);
    stats.set(task, statsOf(own, retryingOf(task)));
  });
  return stats;
}
