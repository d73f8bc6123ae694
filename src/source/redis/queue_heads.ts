/**
 * The heads of many tasks' queues at once: the job active longest and the
 * delayed job due first, for the health verdict.
 *
 * @module
 */

import type { QueueHeads } from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * KEYS[1] = active list, KEYS[2] = delayed set; ARGV[1] = jobPrefix.
 * Workers LPUSH the jobs they claim, so the list's tail is the one claimed
 * longest ago; its hash's `processedOn` says when that attempt started. The
 * delayed set's lowest score is the next run-at. Returns
 * `{ activeId, processedOn, dueId, runAt }`, `""` for what is missing.
 */
export const QUEUE_HEADS: LuaScript = {
  name: "queue-heads",
  source: `
local active = redis.call('LINDEX', KEYS[1], -1)
local since = ''
if active then since = redis.call('HGET', ARGV[1] .. active, 'processedOn') or '' end
local due = redis.call('ZRANGE', KEYS[2], 0, 0, 'WITHSCORES')
return { active or '', since, due[1] or '', due[2] or '' }
`,
};

/**
 * Each task's {@link QueueHeads}: one script call per task (two keys of its
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
    return { script: QUEUE_HEADS, keys: [keys.active, keys.delayed], args: [keys.jobPrefix] };
  })) as [string, string, string, string][];
  const heads = new Map<string, QueueHeads>();
  unique.forEach((task, i) => {
    const [activeId, since, dueId, at] = replies[i];
    heads.set(task, {
      oldestActive: activeId && since !== "" ? { id: activeId, since: Number(since) } : null,
      nextDue: dueId ? { id: dueId, at: Number(at) } : null,
    });
  });
  return heads;
}
