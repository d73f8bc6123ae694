/**
 * A task's failures per minute as the more of two records: taskora's
 * per-minute failed counter, which a worker's own final failure increments,
 * and the failed set's members of that minute (scored by their finish
 * time). taskora's stall check fails a job past `stall.maxCount` straight
 * into the failed set, counter untouched (taskora 0.5.0, `STALLED_CHECK`):
 * the counter alone misses those. The set alone misses failures retried or
 * trimmed since, so neither record is dropped.
 *
 * @module
 */

import type { LuaScript } from "./scripts.ts";

/**
 * Failed-set members of one window above which each minute is counted by its
 * own ZCOUNT rather than by walking the members: the read costs
 * O(min(members, minutes × log N)).
 */
export const FAILED_MEMBERS_WALKED = 1000;

/**
 * KEYS = the completed counters of the minutes, the failed counters of the
 * same minutes, then the failed set; ARGV[1] = `"1"` to leave the failed set
 * out (the caller keeps what it held), ARGV[2..] = the minutes (ms). Returns
 * the counters (nil where none) followed by each minute's failed-set
 * members (0 when left out). One ZCOUNT over the window when it holds none
 * (most tasks, most of the time); else one ZRANGEBYSCORE of its members, or
 * one ZCOUNT per minute past {@link FAILED_MEMBERS_WALKED}.
 */
export const THROUGHPUT_MINUTES: LuaScript = {
  name: "throughput-minutes",
  source: `#!lua flags=no-writes
local failedKey = KEYS[#KEYS]
local reply = redis.call('MGET', unpack(KEYS, 1, #KEYS - 1))
local minutes = { unpack(ARGV, 2) }
local index, inSet = {}, {}
local first, last = math.huge, -math.huge
for i, raw in ipairs(minutes) do
  local minute = tonumber(raw)
  index[minute], inSet[i] = i, 0
  first, last = math.min(first, minute), math.max(last, minute)
end
local total = 0
if ARGV[1] ~= '1' then total = redis.call('ZCOUNT', failedKey, first, last + 59999) end
if total > ${FAILED_MEMBERS_WALKED} then
  for i, raw in ipairs(minutes) do
    inSet[i] = redis.call('ZCOUNT', failedKey, raw, tonumber(raw) + 59999)
  end
elseif total > 0 then
  local members = redis.call('ZRANGEBYSCORE', failedKey, first, last + 59999, 'WITHSCORES')
  for j = 2, #members, 2 do
    local i = index[math.floor(tonumber(members[j]) / 60000) * 60000]
    if i then inSet[i] = inSet[i] + 1 end
  end
end
for i = 1, #minutes do reply[#reply + 1] = inSet[i] end
return reply
`,
};
