/**
 * Queue counts of many tasks at once, in a constant number of round trips.
 *
 * @module
 */

import type { QueueStats } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { Command, RedisConnection } from "./client.ts";
import { CHUNK_SIZE, COUNT_RETRYING } from "./scripts.ts";

/** Commands per task in the first pipeline. */
const PER_TASK = 9;

function countRetrying(task: string, prefix: string | undefined, start: number): Command {
  const keys = taskKeys(task, prefix);
  return {
    script: COUNT_RETRYING,
    keys: [keys.delayed],
    args: [keys.jobPrefix, start, start + CHUNK_SIZE - 1],
  };
}

/**
 * Counts per state for each task.
 *
 * Round trip 1 (one pipeline for all tasks): LLEN wait, ZCARD prioritized,
 * LLEN active, ZCARD delayed/completed/failed/expired/cancelled, and the
 * retrying count of the first 1,000 members of the delayed set.
 * Round trip 2, only when some delayed set is bigger than 1,000: the
 * retrying counts of the remaining chunks, all pipelined. `delayed` is the
 * delayed set's size minus its retrying jobs. Redis work for the split is
 * O(size of the delayed sets), 1,000 members per script call.
 */
export async function getStats(
  connection: RedisConnection,
  tasks: readonly string[],
  prefix?: string,
): Promise<Map<string, QueueStats>> {
  const unique = [...new Set(tasks)];
  const commands: Command[] = unique.flatMap((task) => {
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
      countRetrying(task, prefix, 0),
    ];
  });
  const replies = (await connection.pipeline(commands)) as number[];

  const retrying = new Map<string, number>();
  const more: { task: string; command: Command }[] = [];
  unique.forEach((task, i) => {
    const at = i * PER_TASK;
    retrying.set(task, replies[at + 8]);
    for (let start = CHUNK_SIZE; start < replies[at + 3]; start += CHUNK_SIZE) {
      more.push({ task, command: countRetrying(task, prefix, start) });
    }
  });
  if (more.length > 0) {
    const counts = (await connection.pipeline(more.map((m) => m.command))) as number[];
    more.forEach(({ task }, i) => retrying.set(task, retrying.get(task)! + counts[i]));
  }

  const stats = new Map<string, QueueStats>();
  unique.forEach((task, i) => {
    const r = replies.slice(i * PER_TASK, i * PER_TASK + PER_TASK);
    const retry = Math.min(retrying.get(task)!, r[3]);
    stats.set(task, {
      waiting: r[0] + r[1],
      active: r[2],
      delayed: r[3] - retry,
      retrying: retry,
      failed: r[5],
      completed: r[4],
      cancelled: r[7],
      expired: r[6],
    });
  });
  return stats;
}
