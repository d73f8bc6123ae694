/**
 * A task's counts, queue heads and stalled jobs in one script call: what the
 * overview, the alerts and the metrics read of every task, so 20 tasks cost
 * 20 commands on the wire, not 40 (each command costs the client more than
 * its O(1) reads cost Redis).
 *
 * @module
 */

import type { KeptParts, QueueSnapshot } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { HEADS_LUA, headsOf } from "./queue_heads.ts";
import type { LuaScript } from "./scripts.ts";
import { STALLED_LUA } from "./stalled_jobs.ts";
import { countKeys, COUNTS_LUA, statsOf } from "./stats.ts";

/**
 * KEYS = the eight count keys (wait, prioritized, active, delayed, completed,
 * failed, expired, cancelled); ARGV[1] = jobPrefix; ARGV[2] = `"1"` to leave
 * the oldest waiting job out, ARGV[3] = `"1"` to leave the locks out (what
 * the caller keeps). Returns the eight counts of `counts()`, the twelve
 * fields of `heads()`, which skips the queues those counts found empty, then
 * how many active jobs `stalledJobs()` looked at and how many of them hold no
 * lock (0 and 0 for an empty active list; -1 and 0 when left out).
 */
export const QUEUE_SNAPSHOT: LuaScript = {
  name: "queue-snapshot",
  source: `#!lua flags=no-writes
${COUNTS_LUA}
${HEADS_LUA}
${STALLED_LUA}
local reply = counts()
local head = heads(KEYS[3], KEYS[4], KEYS[1], KEYS[2], ARGV[1], reply, ARGV[2] == '1')
for i = 1, 12 do reply[8 + i] = head[i] end
local stalled = { 0 }
if ARGV[3] == '1' then stalled = { -1 }
elseif reply[3] > 0 then stalled = stalledJobs(KEYS[3], ARGV[1]) end
reply[21] = stalled[1]
reply[22] = #stalled - 1
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
 * (O(1) reads, O(log N) for the sets, at most `STALLED_SCAN` lock reads for
 * a task with active jobs), pipelined in round trips of
 * at most {@link SNAPSHOT_TASKS_PER_TRIP} tasks (one for up to 1,000 tasks).
 * `retryingOf` gives each task's retrying figure (see `statsOf`). The tasks
 * of `kept` have their oldest waiting job, or their locks, left out
 * (`oldestWaiting` null, `stalled` null): the caller keeps them.
 */
export async function getQueueSnapshots(
  connection: RedisConnection,
  tasks: readonly string[],
  retryingOf: (task: string) => number,
  prefix?: string,
  kept: KeptParts = {},
): Promise<Map<string, QueueSnapshot>> {
  const unique = [...new Set(tasks)];
  const replies: unknown[][] = [];
  for (let from = 0; from < unique.length; from += SNAPSHOT_TASKS_PER_TRIP) {
    const trip = unique.slice(from, from + SNAPSHOT_TASKS_PER_TRIP);
    replies.push(
      ...await connection.pipeline(trip.map((task) => ({
        script: QUEUE_SNAPSHOT,
        keys: countKeys(task, prefix),
        args: [
          taskKeys(task, prefix).jobPrefix,
          kept.waiting?.has(task) ? "1" : "0",
          kept.locks?.has(task) ? "1" : "0",
        ],
      }))) as unknown[][],
    );
  }
  return new Map(unique.map((task, i) => {
    const reply = replies[i];
    return [task, {
      stats: statsOf(reply.slice(0, 8), retryingOf(task)),
      heads: headsOf(reply.slice(8, 20) as string[]),
      stalled: Number(reply[20]) < 0
        ? null
        : { checked: Number(reply[20]), total: Number(reply[21]) },
    }];
  }));
}
