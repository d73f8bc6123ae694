/**
 * The history's Lua scripts. Each names keys of the history's one slot only
 * (`<root>:board:{history}:...`): those it writes for an entry come as
 * KEYS; the jobs a cap or a search reaches are named from the root, which
 * carries the same hash tag, so they are in the same slot on a Cluster too.
 * Every loop is bounded by a budget the caller passes.
 *
 * @module
 */

import type { LuaScript } from "../../../source/redis/scripts.ts";

/** `drop(member)`, `capTask(task, index, n)`, `capAll(n)`: what the write and the trim share. */
const DROPPING = `
local root = ARGV[2]
local meta, all, tasks = KEYS[1], KEYS[2], KEYS[3]
local function drop(member)
  local first = string.find(member, '\\0', 1, true)
  local second = string.find(member, '\\0', first + 1, true)
  local task = string.sub(member, first + 1, second - 1)
  local job = root .. ':job:' .. task .. '\\0' .. string.sub(member, second + 1)
  local inTask = redis.call('HGET', job, 'tm')
  redis.call('DEL', job)
  redis.call('ZREM', all, member)
  if inTask then redis.call('ZREM', root .. ':task:' .. task, inTask) end
  return tonumber(string.sub(member, 1, first - 1))
end
local function noteCapped(dropped, newest)
  if dropped == 0 then return end
  redis.call('HINCRBY', meta, 'capDropped', dropped)
  local had = tonumber(redis.call('HGET', meta, 'capNewest') or '0')
  if newest > had then redis.call('HSET', meta, 'capNewest', string.format('%d', newest)) end
end
local function capTask(task, index, max, budget)
  local over = math.min(redis.call('ZCARD', index) - max, budget)
  if over <= 0 then return 0 end
  local newest = 0
  for _, inTask in ipairs(redis.call('ZRANGE', index, 0, over - 1)) do
    local cut = string.find(inTask, '\\0', 1, true)
    local member = string.sub(inTask, 1, cut - 1) .. '\\0' .. task .. '\\0' .. string.sub(inTask, cut + 1)
    newest = math.max(newest, drop(member))
    redis.call('ZREM', index, inTask)
  end
  noteCapped(over, newest)
  return over
end
local function capAll(max, budget)
  local over = math.min(redis.call('ZCARD', all) - max, budget)
  if over <= 0 then return 0 end
  local newest = 0
  for _, member in ipairs(redis.call('ZRANGE', all, 0, over - 1)) do
    newest = math.max(newest, drop(member))
  end
  noteCapped(over, newest)
  return over
end
`;

/**
 * Writes a batch (ARGV[1], JSON; see `store.ts`): each entry once (its
 * `e:<event>` field is the idempotency key), its rollup increments only when
 * it was new, the samples as maxima, the feed's last ids, the rollup hashes'
 * expiries, then the caps of the tasks it touched. Returns how many entries were new.
 */
export const WRITE_HISTORY: LuaScript = {
  name: "history-write",
  writes: true,
  source: `${DROPPING}
local input = cjson.decode(ARGV[1])
-- Increments add up here and are sent once per bucket field: a batch's entries share buckets.
local sums, maxima = {}, {}
local function apply(list)
  for _, step in ipairs(list) do
    local into = step[4] == 1 and maxima or sums
    local id = step[1] .. '|' .. step[2]
    local had = into[id]
    if step[4] == 1 then
      into[id] = { step[1], step[2], had and math.max(had[3], step[3]) or step[3] }
    else
      into[id] = { step[1], step[2], (had and had[3] or 0) + step[3] }
    end
  end
end
local recorded = 0
local touched = {}
for _, e in ipairs(input.entries) do
  local job = KEYS[e.job]
  local field = 'e:' .. e.event
  if redis.call('HEXISTS', job, field) == 0 then
    recorded = recorded + 1
    local fresh = redis.call('EXISTS', job) == 0
    local runs = tonumber(redis.call('HGET', job, 'runs') or '0')
    redis.call('HSET', job, field, (runs + 1) .. '|' .. e.record)
    if fresh then
      redis.call('HSET', job, 'task', e.task, 'id', e.id, 'c', e.createdAt)
      redis.call('SADD', tasks, e.task)
      apply(e.firstOfJob)
    end
    local rank = (runs + 1) * 1000000 + e.attempt
    if rank >= tonumber(redis.call('HGET', job, 'rank') or '-1') then
      local inAll, inTask = unpack(redis.call('HMGET', job, 'am', 'tm'))
      if inAll then redis.call('ZREM', all, inAll) end
      if inTask then redis.call('ZREM', KEYS[e.index], inTask) end
      redis.call('ZADD', all, 0, e.inAll)
      redis.call('ZADD', KEYS[e.index], 0, e.inTask)
      redis.call('HSET', job, 'rank', rank, 'am', e.inAll, 'tm', e.inTask, 's', e.outcome,
        'v', e.version, 'shape', e.shape)
      if e.data then redis.call('HSET', job, 'data', e.data) end
      if e.result then redis.call('HSET', job, 'result', e.result) end
    end
    if e.error ~= '' then
      local errors = redis.call('HGET', job, 'errs') or ''
      if #errors < 16384 then redis.call('HSET', job, 'errs', errors .. '\\n' .. e.error) end
    end
    if e.terminal then
      if runs > 0 then apply(e.rerun) end
      redis.call('HINCRBY', job, 'runs', 1)
    end
    apply(e.always)
    touched[e.task] = KEYS[e.index]
  end
end
apply(input.samples)
for _, sum in pairs(sums) do redis.call('HINCRBY', KEYS[sum[1]], sum[2], sum[3]) end
for _, max in pairs(maxima) do
  local had = tonumber(redis.call('HGET', KEYS[max[1]], max[2]) or '-1')
  if max[3] > had then redis.call('HSET', KEYS[max[1]], max[2], max[3]) end
end
for stream, id in pairs(input.cursors) do redis.call('HSET', meta, 'c:' .. stream, id) end
for _, expiry in ipairs(input.expiries) do redis.call('PEXPIREAT', KEYS[expiry[1]], expiry[2]) end
for task, index in pairs(touched) do capTask(task, index, input.maxPerTask, input.budget) end
capAll(input.maxSummaries, input.budget)
return recorded
`,
};

/**
 * Drops up to ARGV[6] summaries: those that ended before ARGV[3] (a padded
 * time), then any over a task's cap (ARGV[4]) or the total cap (ARGV[5]).
 * Returns how many went.
 */
export const TRIM_HISTORY: LuaScript = {
  name: "history-trim",
  writes: true,
  source: `${DROPPING}
local budget = tonumber(ARGV[6])
local removed = 0
for _, member in ipairs(redis.call('ZRANGEBYLEX', all, '-', '(' .. ARGV[3], 'LIMIT', 0, budget)) do
  drop(member)
  removed = removed + 1
end
for _, task in ipairs(redis.call('SMEMBERS', tasks)) do
  local index = root .. ':task:' .. task
  removed = removed + capTask(task, index, tonumber(ARGV[4]), budget)
  if redis.call('EXISTS', index) == 0 then redis.call('SREM', tasks, task) end
end
return removed + capAll(tonumber(ARGV[5]), budget)
`,
};

/**
 * Walks a summary index (KEYS[1]) backwards from ARGV[2] down to ARGV[3]
 * (lex bounds), keeping the members whose job matches: ARGV[4] states
 * (`,a,b,` or empty), ARGV[5] version, ARGV[6] lower-case error text,
 * ARGV[7] id prefix; ARGV[8] the task of a task's index (empty for the
 * index of all). Stops at ARGV[9] found or ARGV[10] looked at; returns
 * `{ found, last looked at or "" when the index ended }`.
 */
export const SEARCH_HISTORY: LuaScript = {
  name: "history-search",
  source: `
local root, upper, lower = ARGV[1], ARGV[2], ARGV[3]
local states, version, text, prefix, task = ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8]
local limit, budget = tonumber(ARGV[9]), tonumber(ARGV[10])
local found, looked = {}, 0
while true do
  local got = redis.call('ZREVRANGEBYLEX', KEYS[1], upper, lower, 'LIMIT', 0, 100)
  for _, member in ipairs(got) do
    looked = looked + 1
    local first = string.find(member, '\\0', 1, true)
    local jobTask, id = task, string.sub(member, first + 1)
    if task == '' then
      local second = string.find(member, '\\0', first + 1, true)
      jobTask, id = string.sub(member, first + 1, second - 1), string.sub(member, second + 1)
    end
    local ok = prefix == '' or string.sub(id, 1, #prefix) == prefix
    if ok and (states ~= '' or version ~= '' or text ~= '') then
      local state, v, errors = unpack(redis.call('HMGET', root .. ':job:' .. jobTask .. '\\0' .. id,
        's', 'v', 'errs'))
      ok = (states == '' or string.find(states, ',' .. (state or '') .. ',', 1, true) ~= nil)
        and (version == '' or v == version)
        and (text == '' or (errors ~= false and string.find(errors, text, 1, true) ~= nil))
    end
    if ok then found[#found + 1] = jobTask .. '\\0' .. id end
    if #found >= limit or looked >= budget then return { found, member } end
  end
  if #got < 100 then return { found, '' } end
  upper = '(' .. got[#got]
end
`,
};
