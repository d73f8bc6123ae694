/**
 * A task's counts, queue heads and stalled jobs in one script call: what the
 * overview, the alerts and the metrics read of every task, so 20 tasks cost
 * 20 commands on the wire, not 40 (each command costs the client more than
 * its O(1) reads cost Redis).
 *
 * @module
 */

import type { CountedState, KeptParts, QueueSnapshot } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { HEADS_LUA, headsOf } from "./queue_heads.ts";
import type { LuaScript } from "./scripts.ts";
import { STALLED_LUA } from "./stalled_jobs.ts";
import { countKeys, COUNTS_LUA, statsOf } from "./stats.ts";

/**
 * KEYS = the eight count keys (wait, prioritized, active, delayed, completed,
 * failed, expired, cancelled); ARGV[1] = jobPrefix; ARGV[2], ARGV[3],
 * ARGV[4], ARGV[5] = `"1"` to leave out the oldest waiting job, the locks,
 * the oldest active job and the next due job (what the caller keeps);
 * ARGV[6..13] = the sizes of the eight keys the caller keeps, `''` for those
 * to read. Returns the eight counts of `counts()`, the twelve fields of
 * `heads()`, which skips the queues those counts found empty, then how many
 * active jobs `stalledJobs()` looked at and how many of them hold no lock (0
 * and 0 for an empty active list; -1 and 0 when left out).
 */
export const QUEUE_SNAPSHOT: LuaScript = {
  name: "queue-snapshot",
  source: `#!lua flags=no-writes
${COUNTS_LUA}
${HEADS_LUA}
${STALLED_LUA}
local reply = counts({ unpack(ARGV, 6, 13) })
local head = heads(KEYS[3], KEYS[4], KEYS[1], KEYS[2], ARGV[1], reply,
  { waiting = ARGV[2] == '1', active = ARGV[4] == '1', due = ARGV[5] == '1' })
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
 * The sizes of the eight count keys the caller keeps, in their order, `''`
 * for those to read: the wait list's and the prioritized set's together
 * (their sum, as the waiting count) and only with the oldest waiting job,
 * whose read needs each one's size.
 */
function keptSizes(task: string, kept: KeptParts): string[] {
  const given = kept.counts?.get(task);
  const holds = (state: CountedState) => given?.states.has(state) ?? false;
  const size = (state: CountedState, count: number) => holds(state) ? String(count) : "";
  const stats = given?.stats;
  const waiting = holds("waiting") && (kept.waiting?.has(task) ?? false);
  return [
    waiting ? String(stats!.waiting) : "",
    waiting ? "0" : "",
    size("active", stats?.active ?? 0),
    size("delayed", (stats?.delayed ?? 0) + (stats?.retrying ?? 0)),
    size("completed", stats?.completed ?? 0),
    size("failed", stats?.failed ?? 0),
    size("expired", stats?.expired ?? 0),
    size("cancelled", stats?.cancelled ?? 0),
  ];
}

/**
 * Each task's {@link QueueSnapshot}: one {@link QUEUE_SNAPSHOT} call per task
 * (O(1) reads, O(log N) for the sets, at most `STALLED_SCAN` lock reads for
 * a task with active jobs), pipelined in round trips of
 * at most {@link SNAPSHOT_TASKS_PER_TRIP} tasks (one for up to 1,000 tasks).
 * `retryingOf` gives each task's retrying figure (see `statsOf`). What
 * `kept` keeps is left out: the counts it gives are answered as given, its
 * heads and locks null.
 */
export async function getQueueSnapshots(
  connection: RedisConnection,
  tasks: readonly string[],
  retryingOf: (task: string) => number,
  prefix?: string,
  kept: KeptParts = {},
): Promise<Map<string, QueueSnapshot>> {
  const unique = [...new Set(tasks)];
  const flag = (parts: ReadonlySet<string> | undefined, task: string) =>
    parts?.has(task) ? "1" : "0";
  const replies: unknown[][] = [];
  for (let from = 0; from < unique.length; from += SNAPSHOT_TASKS_PER_TRIP) {
    const trip = unique.slice(from, from + SNAPSHOT_TASKS_PER_TRIP);
    replies.push(
      ...await connection.pipeline(trip.map((task) => ({
        script: QUEUE_SNAPSHOT,
        keys: countKeys(task, prefix),
        args: [
          taskKeys(task, prefix).jobPrefix,
          flag(kept.waiting, task),
          flag(kept.locks, task),
          flag(kept.active, task),
          flag(kept.due, task),
          ...keptSizes(task, kept),
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
