/**
 * The heads of a task's queues, read inside the queue snapshot's script
 * (`queue_snapshot.ts`): the job waiting longest, the job active longest and
 * the delayed job due first, for the health verdict and the queue latency.
 *
 * @module
 */

import { OLDEST_WAITING_SCAN, queuedSince } from "../../contract/health.ts";
import type { QueueHeads } from "../types.ts";

/**
 * `heads(active, delayed, wait, prioritized, jobPrefix, lengths, skip)`: workers
 * LPUSH the jobs they claim, so the active list's tail is the one claimed
 * longest ago; its hash's `processedOn` says when that attempt started. The
 * delayed set's lowest score is the next run-at. The job waiting longest is
 * the one of the {@link OLDEST_WAITING_SCAN} at each end of the wait list,
 * and of the prioritized set, whose wait started first, read from `ts`,
 * `delay` and `processedOn` as `queuedSince` reads them. Returns `{ activeId,
 * processedOn, dueId, runAt, waitId, ts, delay, processedOn, prioId, ts,
 * delay, processedOn }`, `""` for what is missing. O(1) reads, O(log N) for
 * the sets, and at most 4 × {@link OLDEST_WAITING_SCAN} job hashes.
 *
 * `lengths`, when the caller has just counted the queues, holds their sizes
 * in `counts()` order (wait, prioritized, active, delayed): an empty queue is
 * not read. Most queues are empty most of the time, and each read costs Redis
 * more for the script's call than for the read itself. `skip` (a table,
 * optional) leaves out what a caller keeps (`''`): `waiting`, the oldest
 * waiting job; `active`, the oldest active one; `due`, the next due one.
 */
export const HEADS_LUA = `
local function heads(activeKey, delayedKey, waitKey, prioritizedKey, jobPrefix, lengths, skip)
  skip = skip or {}
  local scan = ${OLDEST_WAITING_SCAN}
  local function filled(at) return lengths == nil or lengths[at] > 0 end
  -- The ids at both ends of a list (LRANGE) or sorted set (ZRANGE), the whole when short.
  local function ends(range, key, length)
    if length <= 2 * scan then return redis.call(range, key, 0, -1) end
    local ids = redis.call(range, key, 0, scan - 1)
    for _, id in ipairs(redis.call(range, key, -scan, -1)) do ids[#ids + 1] = id end
    return ids
  end
  -- The one whose wait started first: since processedOn (not before ts) when it ran, else ts + delay.
  local function oldest(ids)
    local best, bestSince = { '', '', '', '' }, nil
    for _, id in ipairs(ids) do
      local f = redis.call('HMGET', jobPrefix .. id, 'ts', 'delay', 'processedOn')
      if f[1] then
        local ts = tonumber(f[1]) or 0
        local since = ts + (tonumber(f[2]) or 0)
        if f[3] then since = math.max(ts, tonumber(f[3]) or 0) end
        if bestSince == nil or since < bestSince then
          best, bestSince = { id, f[1], f[2] or '', f[3] or '' }, since
        end
      end
    end
    return best
  end
  local active = filled(3) and not skip.active and redis.call('LINDEX', activeKey, -1)
  local since = ''
  if active then since = redis.call('HGET', jobPrefix .. active, 'processedOn') or '' end
  local due = filled(4) and not skip.due and redis.call('ZRANGE', delayedKey, 0, 0, 'WITHSCORES') or {}
  local reply = { active or '', since, due[1] or '', due[2] or '' }
  local waiting = { '', '', '', '' }
  if filled(1) and not skip.waiting then
    waiting = oldest(ends('LRANGE', waitKey, lengths and lengths[1] or redis.call('LLEN', waitKey)))
  end
  local prioritized = { '', '', '', '' }
  if filled(2) and not skip.waiting then
    local length = lengths and lengths[2] or redis.call('ZCARD', prioritizedKey)
    prioritized = oldest(ends('ZRANGE', prioritizedKey, length))
  end
  for i = 1, 4 do reply[4 + i] = waiting[i] end
  for i = 1, 4 do reply[8 + i] = prioritized[i] end
  return reply
end
`;

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
