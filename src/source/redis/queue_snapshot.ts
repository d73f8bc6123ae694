/**
 * A task's counts and queue heads in one script call: what the overview and
 * the metrics read of every task, so 20 tasks cost 20 commands on the wire,
 * not 40 (each command costs the client more than its O(1) reads cost Redis).
 *
 * @module
 */

import type { QueueSnapshot } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { HEADS_LUA, headsOf } from "./queue_heads.ts";
import type { LuaScript } from "./scripts.ts";
import { countKeys, COUNTS_LUA, statsOf } from "./stats.ts";

/**
 * KEYS = the eight count keys (wait, prioritized, active, delayed, completed,
 * failed, expired, cancelled); ARGV[1] = jobPrefix. Returns the eight counts
 * of `counts()` followed by the twelve fields of `heads()`, which skips the
 * queues those counts found empty.
 */
export const QUEUE_SNAPSHOT: LuaScript = {
  name: "queue-snapshot",
  source: `#!lua flags=no-writes
${COUNTS_LUA}
${HEADS_LUA}
local reply = counts()
local head = heads(KEYS[3], KEYS[4], KEYS[1], KEYS[2], ARGV[1], reply)
for i = 1, 12 do reply[8 + i] = head[i] end
return reply
`,
};

/**
 * The most tasks one round trip reads: at 10,000 tasks one batch took 2 to
 * 4 s on two busy cores, past the command timeout.
 */
export const SNAPSHOT_TASKS_PER_TRIP = 1000;

/**
 * Each task's {@link QueueSnapshot}: one {@link QUEUE_SNAPSHOT} call per task
 * (O(1) reads, O(log N) for the sets, no loop), pipelined in round trips of
 * at most {@link SNAPSHOT_TASKS_PER_TRIP} tasks (one for up to 1,000 tasks).
 * `retryingOf` gives each task's retrying figure (see `statsOf`).
 */
export async function getQueueSnapshots(
  connection: RedisConnection,
  tasks: readonly string[],
  retryingOf: (task: string) => number,
  prefix?: string,
): Promise<Map<string, QueueSnapshot>> {
  const unique = [...new Set(tasks)];
  const replies: unknown[][] = [];
  for (let from = 0; from < unique.length; from += SNAPSHOT_TASKS_PER_TRIP) {
    const trip = unique.slice(from, from + SNAPSHOT_TASKS_PER_TRIP);
    replies.push(
      ...await connection.pipeline(trip.map((task) => ({
        script: QUEUE_SNAPSHOT,
        keys: countKeys(task, prefix),
        args: [taskKeys(task, prefix).jobPrefix],
      }))) as unknown[][],
    );
  }
  return new Map(unique.map((task, i) => {
    const reply = replies[i];
    return [task, {
      stats: statsOf(reply.slice(0, 8), retryingOf(task)),
      heads: headsOf(reply.slice(8) as string[]),
    }];
  }));
}
