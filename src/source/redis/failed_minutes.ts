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
 * KEYS[1] = the task's failed set; ARGV[1] = `"1"` to leave the failed set
 * out (the caller keeps what it held), ARGV[2] = the prefix of the task's
 * counters (`<root>:{T}:metrics:`), ARGV[3..] = runs of minutes, each its
 * newest minute (ms) and how many minutes it holds, going back one minute at
 * a time. The counters' names are made here, not sent: a day of one task is
 * 2,880 of them, about 115 KB of command a task when the board named them.
 * They carry the failed set's `{task}` tag, so they are of its slot (on a
 * Cluster too). Returns, for each minute that has a counter or a failed-set
 * member only, four values: its place among the minutes (from 1, in the
 * order asked), its completed counter, its failed counter (nil where none),
 * its failed-set members (0 when left out). One MGET of both kinds; one
 * ZCOUNT over the window when it holds none (most tasks, most of the time);
 * else one ZRANGEBYSCORE of its members, or one ZCOUNT per minute past
 * {@link FAILED_MEMBERS_WALKED}.
 */
export const THROUGHPUT_MINUTES: LuaScript = {
  name: "throughput-minutes",
  source: `#!lua flags=no-writes
local failedKey, counters = KEYS[1], ARGV[2]
local minutes = {}
for r = 3, #ARGV, 2 do
  local newest = tonumber(ARGV[r])
  for k = 0, tonumber(ARGV[r + 1]) - 1 do minutes[#minutes + 1] = newest - k * 60000 end
end
local n = #minutes
local names = {}
for i, minute in ipairs(minutes) do
  local at = string.format('%d', minute)
  names[i], names[n + i] = counters .. 'completed:' .. at, counters .. 'failed:' .. at
end
local read = redis.call('MGET', unpack(names))
local index, inSet = {}, {}
local first, last = math.huge, -math.huge
for i, minute in ipairs(minutes) do
  index[minute], inSet[i] = i, 0
  first, last = math.min(first, minute), math.max(last, minute)
end
local total = 0
if ARGV[1] ~= '1' then total = redis.call('ZCOUNT', failedKey, first, last + 59999) end
if total > ${FAILED_MEMBERS_WALKED} then
  for i, minute in ipairs(minutes) do
    inSet[i] = redis.call('ZCOUNT', failedKey, minute, minute + 59999)
  end
elseif total > 0 then
  local members = redis.call('ZRANGEBYSCORE', failedKey, first, last + 59999, 'WITHSCORES')
  for j = 2, #members, 2 do
    local i = index[math.floor(tonumber(members[j]) / 60000) * 60000]
    if i then inSet[i] = inSet[i] + 1 end
  end
end
local reply = {}
for i = 1, n do
  if read[i] or read[n + i] or inSet[i] > 0 then
    reply[#reply + 1] = i
    reply[#reply + 1] = read[i]
    reply[#reply + 1] = read[n + i]
    reply[#reply + 1] = inSet[i]
  end
end
return reply
`,
};
