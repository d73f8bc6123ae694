/**
 * The heads of many tasks' queues at once: the job waiting longest, the job
 * active longest and the delayed job due first, for the health verdict and
 * the queue latency.
 *
 * @module
 */

import { queuedSince } from "../../contract/health.ts";
import type { QueueHeads } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * `heads(active, delayed, wait, prioritized, jobPrefix, lengths)`: workers
 * LPUSH the jobs they claim, so the active list's tail is the one claimed
 * longest ago; its hash's `processedOn` says when that attempt started. The
 * delayed set's lowest score is the next run-at. A worker takes the wait
 * list's tail (the oldest LPUSH) first, else the prioritized set's head: of
 * those two the longer waiting is the queue's latency, read from `ts`,
 * `delay` and `processedOn` of each. Returns `{ activeId, processedOn, dueId,
 * runAt, waitId, ts, delay, processedOn, prioId, ts, delay, processedOn }`,
 * `""` for what is missing. O(1) reads, and O(log N) for the sets.
 *
 * `lengths`, when the caller has just counted the queues, holds their sizes
 * in `counts()` order (wait, prioritized, active, delayed): an empty queue is
 * not read. Most queues are empty most of the time, and each read costs Redis
 * more for the script's call than for the read itself.
 */
export const HEADS_LUA = `
local function heads(activeKey, delayedKey, waitKey, prioritizedKey, jobPrefix, lengths)
  local function filled(at) return lengths == nil or lengths[at] > 0 end
  local function queued(id)
    if not id then return { '', '', '', '' } end
    local f = redis.call('HMGET', jobPrefix .. id, 'ts', 'delay', 'processedOn')
    return { id, f[1] or '', f[2] or '', f[3] or '' }
  end
  local active = filled(3) and redis.call('LINDEX', activeKey, -1)
  local since = ''
  if active then since = redis.call('HGET', jobPrefix .. active, 'processedOn') or '' end
  local due = filled(4) and redis.call('ZRANGE', delayedKey, 0, 0, 'WITHSCORES') or {}
  local reply = { active or '', since, due[1] or '', due[2] or '' }
  local waiting = queued(filled(1) and redis.call('LINDEX', waitKey, -1))
  local prioritized = queued(filled(2) and redis.call('ZRANGE', prioritizedKey, 0, 0)[1])
  for i = 1, 4 do reply[4 + i] = waiting[i] end
  for i = 1, 4 do reply[8 + i] = prioritized[i] end
  return reply
end
`;

/** KEYS = active list, delayed set, wait list, prioritized set; ARGV[1] = jobPrefix: {@link HEADS_LUA}. */
export const QUEUE_HEADS: LuaScript = {
  name: "queue-heads",
  source: `#!lua flags=no-writes
${HEADS_LUA}
return heads(KEYS[1], KEYS[2], KEYS[3], KEYS[4], ARGV[1])
`,
};

type Queued = [id: string, ts: string, delay: string, processedOn: string];

/** The waiting job of a script reply, with since when it waits; null for none or a hash gone. */
function waitingOf([id, ts, delay, processedOn]: Queued): { id: string; since: number } | null {
  if (id === "" || ts === "") return null;
  const since = queuedSince({
    createdAt: Number(ts),
    delay: Number(delay) || 0,
    processedAt: processedOn === "" ? null : Number(processedOn),
  });
  return { id, since };
}

/**
 * Each task's {@link QueueHeads}: one script call per task (four keys of its
 * slot, O(1) and O(log N)), all in one pipelined round trip.
 */
export async function getQueueHeads(
  connection: RedisConnection,
  tasks: readonly string[],
  prefix?: string,
): Promise<Map<string, QueueHeads>> {
  const unique = [...new Set(tasks)];
  const replies = await connection.pipeline(unique.map((task) => {
    const keys = taskKeys(task, prefix);
    return {
      script: QUEUE_HEADS,
      keys: [keys.active, keys.delayed, keys.wait, keys.prioritized],
      args: [keys.jobPrefix],
    };
  })) as string[][];
  return new Map(unique.map((task, i) => [task, headsOf(replies[i])]));
}

/** Turns a reply of {@link HEADS_LUA} into a task's {@link QueueHeads}. */
export function headsOf(reply: readonly string[]): QueueHeads {
  const [activeId, since, dueId, at] = reply;
  const waiting = [
    waitingOf(reply.slice(4, 8) as Queued),
    waitingOf(reply.slice(8, 12) as Queued),
  ].filter((head) => head !== null);
  return {
    oldestWaiting: waiting.sort((a, b) => a.since - b.since)[0] ?? null,
    oldestActive: activeId && since !== "" ? { id: activeId, since: Number(since) } : null,
    nextDue: dueId ? { id: dueId, at: Number(at) } : null,
  };
}
