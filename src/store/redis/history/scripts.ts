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

/**
 * `idMember(id, task)`, `drop(member)`, `capTask(task, index, n)`, `capAll(n)`
 * (each cap noting what it dropped, in all and per task): what the write and
 * the trim share.
 */
const DROPPING = `
local root = ARGV[2]
local meta, all, tasks, ids, cuts = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local function idMember(id, task)
  return #id .. ':' .. id .. '\\0' .. task
end
local function drop(member)
  local first = string.find(member, '\\0', 1, true)
  local second = string.find(member, '\\0', first + 1, true)
  local task = string.sub(member, first + 1, second - 1)
  local id = string.sub(member, second + 1)
  redis.call('DEL', root .. ':job:' .. task .. '\\0' .. id)
  redis.call('ZREM', ids, idMember(id, task))
  redis.call('ZREM', all, member)
  redis.call('ZREM', root .. ':task:' .. task, string.sub(member, 1, first) .. id)
  return tonumber(string.sub(member, 1, first - 1)), task
end
-- What a cap dropped: counted in all (meta) and per task (cuts: '<dropped>|<newest end>').
local function noteCapped(dropped, newest, byTask)
  if dropped == 0 then return end
  redis.call('HINCRBY', meta, 'capDropped', dropped)
  local had = tonumber(redis.call('HGET', meta, 'capNewest') or '0')
  if newest > had then redis.call('HSET', meta, 'capNewest', string.format('%d', newest)) end
  for task, cut in pairs(byTask) do
    local n, last = cut[1], cut[2]
    local kept = redis.call('HGET', cuts, task)
    if kept then
      local bar = string.find(kept, '|', 1, true)
      n = n + tonumber(string.sub(kept, 1, bar - 1))
      last = math.max(last, tonumber(string.sub(kept, bar + 1)))
    end
    redis.call('HSET', cuts, task, string.format('%d|%d', n, last))
  end
end
local function dropAll(members)
  local newest, byTask = 0, {}
  for _, member in ipairs(members) do
    local ended, task = drop(member)
    newest = math.max(newest, ended)
    local cut = byTask[task] or { 0, 0 }
    byTask[task] = { cut[1] + 1, math.max(cut[2], ended) }
  end
  noteCapped(#members, newest, byTask)
  return #members
end
local function capTask(task, index, max, budget)
  local over = math.min(redis.call('ZCARD', index) - max, budget)
  if over <= 0 then return 0 end
  local members = {}
  for _, inTask in ipairs(redis.call('ZRANGE', index, 0, over - 1)) do
    local cut = string.find(inTask, '\\0', 1, true)
    members[#members + 1] = string.sub(inTask, 1, cut - 1) .. '\\0' .. task .. '\\0' .. string.sub(inTask, cut + 1)
  end
  return dropAll(members)
end
local function capAll(max, budget)
  local over = math.min(redis.call('ZCARD', all) - max, budget)
  if over <= 0 then return 0 end
  return dropAll(redis.call('ZRANGE', all, 0, over - 1))
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
-- Increments add up here by slot (a bucket field: input.slots[slot] = { key, field, max })
-- and are sent once per slot: a batch's entries share buckets.
local slots, totals = input.slots, {}
local function apply(list)
  for i = 1, #list, 2 do
    local slot, by = list[i], list[i + 1]
    local had = totals[slot]
    if slots[slot][3] == 1 then
      totals[slot] = had and math.max(had, by) or by
    else
      totals[slot] = (had or 0) + by
    end
  end
end
local recorded = 0
local touched = {}
for _, e in ipairs(input.entries) do
  local job = KEYS[e.job]
  local field = 'e:' .. e.event
  -- One read and one write of the job hash per entry.
  local had, task, runs, rank, ended, errors = unpack(redis.call('HMGET', job, field,
    'task', 'runs', 'rank', 'at', 'errs'))
  if not had then
    recorded = recorded + 1
    runs = tonumber(runs or '0')
    local set = { field, (runs + 1) .. '|' .. e.record }
    if e.attemptError then
      set[3] = 'x:' .. e.event
      set[4] = e.attemptError
    end
    local function put(name, value)
      set[#set + 1] = name
      set[#set + 1] = value
    end
    if not task then
      put('task', e.task)
      put('id', e.id)
      put('c', e.createdAt)
      redis.call('SADD', tasks, e.task)
      redis.call('ZADD', ids, 0, idMember(e.id, e.task))
      apply(e.firstOfJob)
    end
    local entryRank = (runs + 1) * 1000000 + e.attempt
    if entryRank >= tonumber(rank or '-1') then
      if ended ~= e.ended then
        if ended then
          redis.call('ZREM', all, ended .. '\\0' .. e.task .. '\\0' .. e.id)
          redis.call('ZREM', KEYS[e.index], ended .. '\\0' .. e.id)
        end
        redis.call('ZADD', all, 0, e.ended .. '\\0' .. e.task .. '\\0' .. e.id)
        redis.call('ZADD', KEYS[e.index], 0, e.ended .. '\\0' .. e.id)
      end
      put('rank', entryRank)
      put('at', e.ended)
      put('s', e.outcome)
      put('v', e.version)
      put('shape', e.shape)
      if e.data then put('data', e.data) end
      if e.result then put('result', e.result) end
      if e.dataBytes then put('db', e.dataBytes) end
      if e.resultBytes then put('rb', e.resultBytes) end
    end
    if e.error ~= '' then
      errors = errors or ''
      if #errors < 16384 then put('errs', errors .. '\\n' .. e.error) end
    end
    if e.terminal then
      if runs > 0 then apply(e.rerun) end
      put('runs', runs + 1)
    end
    redis.call('HSET', job, unpack(set))
    apply(e.always)
    touched[e.task] = KEYS[e.index]
  end
end
apply(input.samples)
for slot, total in pairs(totals) do
  local key, field = KEYS[slots[slot][1]], slots[slot][2]
  if slots[slot][3] == 1 then
    if total > tonumber(redis.call('HGET', key, field) or '-1') then
      redis.call('HSET', key, field, total)
    end
  else
    redis.call('HINCRBY', key, field, total)
  end
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
  if redis.call('EXISTS', index) == 0 then
    redis.call('SREM', tasks, task)
    redis.call('HDEL', cuts, task)
  end
end
return removed + capAll(tonumber(ARGV[5]), budget)
`,
};

/**
 * Adds to the index by job id (KEYS[4]) up to ARGV[3] summaries of the
 * index of all (KEYS[2]), in its order from where the last call stopped
 * (the meta hash's `idsFrom`): a history written before that index existed
 * is indexed a bounded batch at a time. Once the walk reaches the end, or
 * finds the index by id as long as the index of all (every summary written
 * since it existed is in both), it notes `idsIndexed` and does nothing
 * more. Returns `{ added, 1 when done }`.
 */
export const INDEX_JOB_IDS: LuaScript = {
  name: "history-index-job-ids",
  writes: true,
  source: `${DROPPING}
if redis.call('HEXISTS', meta, 'idsIndexed') == 1 then return { 0, 1 } end
local budget = tonumber(ARGV[3])
local members = {}
if redis.call('ZCARD', ids) < redis.call('ZCARD', all) then
  local from = redis.call('HGET', meta, 'idsFrom')
  members = redis.call('ZRANGEBYLEX', all, from and ('(' .. from) or '-', '+', 'LIMIT', 0, budget)
  for _, member in ipairs(members) do
    local first = string.find(member, '\\0', 1, true)
    local second = string.find(member, '\\0', first + 1, true)
    redis.call('ZADD', ids, 0, idMember(string.sub(member, second + 1), string.sub(member, first + 1, second - 1)))
  end
  if #members == budget then
    redis.call('HSET', meta, 'idsFrom', members[#members])
    return { #members, 0 }
  end
end
redis.call('HSET', meta, 'idsIndexed', '1')
redis.call('HDEL', meta, 'idsFrom')
return { #members, 1 }
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
