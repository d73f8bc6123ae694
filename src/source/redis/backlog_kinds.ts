/**
 * A task's effective backlog by kind (see `contract/scaling.ts`) in one
 * script on the task's slot: the lengths of the wait list and the
 * prioritized set, the delayed and retrying jobs due now, and, among the
 * next {@link HELD_SCAN_LIMIT} jobs of each queue (those a worker takes
 * first), the ones whose concurrency key is at its limit, read as
 * taskora's claim reads them (the job's `concurrencyKey` and
 * `concurrencyLimit`, the `conc:<key>` counter). Bounded: at most twice
 * the limit HMGETs and one GET per distinct key.
 *
 * @module
 */

import { type BacklogRead, HELD_SCAN_LIMIT } from "../../contract/scaling.ts";
import { taskKeys } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import type { LuaScript } from "./scripts.ts";

/**
 * KEYS = wait, prioritized, delayed; ARGV = job key prefix, now (ms), scan
 * limit. Returns { wait length, prioritized count, due, held on the wait
 * list, held on the prioritized set, examined }.
 */
const BACKLOG_KINDS: LuaScript = {
  name: "backlog-kinds",
  source: `
local prefix, now, limit = ARGV[1], ARGV[2], tonumber(ARGV[3])
local counters = {}
local function isHeld(id)
  local f = redis.call('HMGET', prefix .. id, 'concurrencyKey', 'concurrencyLimit')
  local key, max = f[1], tonumber(f[2] or '0') or 0
  if not key or key == '' or max <= 0 then return false end
  if counters[key] == nil then
    counters[key] = tonumber(redis.call('GET', prefix .. 'conc:' .. key) or '0') or 0
  end
  return counters[key] >= max
end
local function countHeld(ids)
  local held = 0
  for _, id in ipairs(ids) do if isHeld(id) then held = held + 1 end end
  return held
end
-- Workers RPOP the wait list's tail and ZPOPMIN the prioritized set: the next ones first.
local waitIds = redis.call('LRANGE', KEYS[1], -limit, -1)
local prioritizedIds = redis.call('ZRANGE', KEYS[2], 0, limit - 1)
return {
  redis.call('LLEN', KEYS[1]),
  redis.call('ZCARD', KEYS[2]),
  redis.call('ZCOUNT', KEYS[3], '-inf', now),
  countHeld(waitIds),
  countHeld(prioritizedIds),
  #waitIds + #prioritizedIds,
}
`,
};

/** Task `task`'s backlog by kind at `now`, `heldScan` jobs of each queue looked at: one script. */
export async function readBacklogKinds(
  connection: RedisConnection,
  task: string,
  now: number,
  prefix?: string,
  heldScan: number = HELD_SCAN_LIMIT,
): Promise<BacklogRead> {
  const keys = taskKeys(task, prefix);
  const [reply] = await connection.pipeline([{
    script: BACKLOG_KINDS,
    keys: [keys.wait, keys.prioritized, keys.delayed],
    args: [keys.jobPrefix, String(now), String(heldScan)],
  }]);
  const [wait, prioritized, due, heldWaiting, heldPrioritized, examined] = (reply as unknown[])
    .map(Number);
  return {
    kinds: {
      waiting: wait - heldWaiting,
      prioritized: prioritized - heldPrioritized,
      delayed: due,
      held: heldWaiting + heldPrioritized,
    },
    examined,
    queued: wait + prioritized,
  };
}
