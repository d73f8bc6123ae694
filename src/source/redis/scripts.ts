/**
 * The board's own Lua scripts (read-only). Each one touches keys of a single
 * `{task}` slot and a bounded number of members per call, so Redis is never
 * blocked for long and every script works unchanged on Redis Cluster.
 *
 * Scripts are sent with EVALSHA by {@link RedisConnection}, which loads them
 * when Redis does not know them yet.
 *
 * @module
 */

import { HISTORY_EVENTS } from "../attempt_history.ts";

/** A Lua script; its SHA-1 is computed by the connection. */
export interface LuaScript {
  /** A name for logs and errors. */
  readonly name: string;
  /** The Lua source. */
  readonly source: string;
  /**
   * Whether it changes the keyspace. A write that was sent and not answered
   * is reported as of unknown outcome (Redis may still run it, e.g. after a
   * failover's `CLIENT PAUSE WRITE`), a read as the store being unavailable.
   */
  readonly writes?: true;
}

/** How many members one script call looks at, at most. */
export const CHUNK_SIZE = 1000;

/**
 * The job hash fields a list row needs: every field but `data` and `result`,
 * so a page of jobs with 10 MB inputs reads kilobytes.
 */
export const ROW_FIELD_NAMES: readonly string[] = [
  "state",
  "_v",
  "attempt",
  "maxAttempts",
  "priority",
  "ts",
  "processedOn",
  "finishedOn",
  "error",
  "progress",
  "cancelledAt",
  "cancelReason",
  "expireAt",
  "stalledCount",
  "_wf",
  "_wfNode",
];

/** `row(key)`, shared by the page scripts: {@link ROW_FIELD_NAMES} as `{field, value, ...}`, like HGETALL (empty when the hash is gone). */
const ROW_FIELDS = `
local ROW_FIELDS = { ${ROW_FIELD_NAMES.map((name) => `'${name}'`).join(", ")} }
local function row(key)
  local values = redis.call('HMGET', key, unpack(ROW_FIELDS))
  local out = {}
  for i, name in ipairs(ROW_FIELDS) do
    if values[i] then
      out[#out + 1] = name
      out[#out + 1] = values[i]
    end
  end
  return out
end
`;

/** `addScored(got, ids, scores)`: appends a WITHSCORES reply's members to `ids`, their scores to `scores`. */
const ADD_SCORED = `
local function addScored(got, ids, scores)
  for i = 1, #got, 2 do
    ids[#ids + 1] = got[i]
    scores[#ids] = got[i + 1]
  end
end
`;

/**
 * `waitingIds(list, set, offset, limit)`, shared by the page and search
 * scripts: ids `offset..offset+limit-1` of the waiting jobs in run order
 * (the wait list from its tail, workers RPOP it, then the prioritized set
 * by score, which workers ZPOPMIN after), and how many there are.
 */
const WAITING_IDS = `
local function waitingIds(list, set, offset, limit)
  local ids = {}
  local listLen = redis.call('LLEN', list)
  local total = listLen + redis.call('ZCARD', set)
  if limit > 0 and offset < listLen then
    local last = math.min(offset + limit, listLen)
    local got = redis.call('LRANGE', list, -last, -(offset + 1))
    for i = #got, 1, -1 do ids[#ids + 1] = got[i] end
  end
  local remaining = limit - #ids
  if remaining > 0 then
    local first = math.max(offset - listLen, 0)
    for _, id in ipairs(redis.call('ZRANGE', set, first, first + remaining - 1)) do
      ids[#ids + 1] = id
    end
  end
  return ids, total
end
`;

/**
 * One page of a task's jobs: the ids of a range plus each job's hash
 * without its payloads.
 *
 * KEYS[1] = the list or set; KEYS[2] = the prioritized set (mode `waiting`).
 * ARGV = jobPrefix, mode, offset, limit. Modes:
 * - `waiting`: run order, i.e. the wait list from its tail (workers RPOP it),
 *   then the prioritized set by score (workers fall back to ZPOPMIN);
 * - `list`: a list from its head (`active`);
 * - `newest`: a sorted set by descending score (finished sets).
 *
 * Returns `{ total, {id, score, {field, value, ...}}, ... }` (score `""` for lists).
 */
export const JOB_PAGE: LuaScript = {
  name: "job-page",
  source: `${ROW_FIELDS}${WAITING_IDS}${ADD_SCORED}
local prefix, mode = ARGV[1], ARGV[2]
local offset, limit = tonumber(ARGV[3]), tonumber(ARGV[4])
local ids, scores, total = {}, {}, 0

if mode == 'waiting' then
  ids, total = waitingIds(KEYS[1], KEYS[2], offset, limit)
elseif mode == 'list' then
  total = redis.call('LLEN', KEYS[1])
  if limit > 0 then ids = redis.call('LRANGE', KEYS[1], offset, offset + limit - 1) end
else
  total = redis.call('ZCARD', KEYS[1])
  if limit > 0 then
    local got = redis.call('ZREVRANGE', KEYS[1], offset, offset + limit - 1, 'WITHSCORES')
    addScored(got, ids, scores)
  end
end

local out = { total }
for i, id in ipairs(ids) do
  out[#out + 1] = { id, scores[i] or '', row(prefix .. id) }
end
return out
`,
};

/**
 * Walks a task's delayed set in run-at order and returns the members (their
 * hash without its payloads) whose hash state is the wanted one (`retrying`, or `delayed` for any other).
 * Looks at no more than `budget` members per call; the caller continues
 * from `nextIndex`.
 *
 * KEYS[1] = delayed set; ARGV = jobPrefix, wanted, start, budget, skip, want.
 * Returns `{ nextIndex (-1 at the end), skipLeft, {id, score, {fields}}, ... }`.
 */
export const DELAYED_PAGE: LuaScript = {
  name: "delayed-page",
  source: `${ROW_FIELDS}
local prefix, wanted = ARGV[1], ARGV[2]
local start, budget = tonumber(ARGV[3]), tonumber(ARGV[4])
local skip, want = tonumber(ARGV[5]), tonumber(ARGV[6])
local got = redis.call('ZRANGE', KEYS[1], start, start + budget - 1, 'WITHSCORES')
local found = {}
local looked = 0
for i = 1, #got, 2 do
  if #found >= want then break end
  local id = got[i]
  looked = looked + 1
  local isRetrying = redis.call('HGET', prefix .. id, 'state') == 'retrying'
  if isRetrying == (wanted == 'retrying') then
    if skip > 0 then
      skip = skip - 1
    else
      found[#found + 1] = { id, got[i + 1], row(prefix .. id) }
    end
  end
end
local nextIndex = start + looked
if looked * 2 >= #got and #got < budget * 2 then nextIndex = -1 end
local out = { nextIndex, skip }
for _, entry in ipairs(found) do out[#out + 1] = entry end
return out
`,
};

/**
 * Counts jobs by task version (`_v`) over an index range of a list or set.
 *
 * KEYS[1] = list or set; ARGV = jobPrefix, mode (`list` | `zset` | `zrev`),
 * start, stop, split (`1`: bucket by delayed/retrying state).
 * Returns `{ "<bucket> <version>", count, ... }` with bucket `all`, `delayed` or `retrying`.
 */
export const COUNT_VERSIONS: LuaScript = {
  name: "count-versions",
  source: `
local prefix, mode = ARGV[1], ARGV[2]
local start, stop, split = tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5] == '1'
local ids
if mode == 'list' then
  ids = redis.call('LRANGE', KEYS[1], start, stop)
elseif mode == 'zrev' then
  ids = redis.call('ZREVRANGE', KEYS[1], start, stop)
else
  ids = redis.call('ZRANGE', KEYS[1], start, stop)
end
local counts = {}
for _, id in ipairs(ids) do
  local fields = redis.call('HMGET', prefix .. id, '_v', 'state')
  if fields[1] then
    local bucket = 'all'
    if split then
      bucket = (fields[2] == 'retrying') and 'retrying' or 'delayed'
    end
    local key = bucket .. ' ' .. fields[1]
    counts[key] = (counts[key] or 0) + 1
  end
end
local out = {}
for key, count in pairs(counts) do
  out[#out + 1] = key
  out[#out + 1] = count
end
return out
`,
};

/**
 * The id, failure time and error of failed jobs `start..stop` (by index,
 * oldest first) of a task's failed set.
 *
 * KEYS[1] = failed set; ARGV = jobPrefix, start, stop.
 * Returns `{ id, score, error, ... }` (error `""` when the hash has none).
 */
export const FAILED_ERRORS: LuaScript = {
  name: "failed-errors",
  source: `
local prefix = ARGV[1]
local got = redis.call('ZRANGE', KEYS[1], tonumber(ARGV[2]), tonumber(ARGV[3]), 'WITHSCORES')
local out = {}
for i = 1, #got, 2 do
  out[#out + 1] = got[i]
  out[#out + 1] = got[i + 1]
  out[#out + 1] = redis.call('HGET', prefix .. got[i], 'error') or ''
end
return out
`,
};

/**
 * The entries of one job among up to `count` entries of a task's event
 * stream, newest first, from `end` (`+`, or `(<id>` to continue below an id):
 * only those of `HISTORY_EVENTS` (failures, and what starts and ends a run),
 * only the fields an attempt history needs, so entries carrying big results
 * are never sent.
 *
 * KEYS[1] = events stream; ARGV = jobId, end, count.
 * Returns `{ scanned, oldestId ("" when none), {id, event, attempt, error, nextAttemptAt, action}, ... }`.
 */
export const ATTEMPT_ENTRIES: LuaScript = {
  name: "attempt-entries",
  source: `
local entries = redis.call('XREVRANGE', KEYS[1], ARGV[2], '-', 'COUNT', tonumber(ARGV[3]))
local last = entries[#entries]
local out = { #entries, last and last[1] or '' }
local wanted = { ${HISTORY_EVENTS.map((event) => `['${event}'] = true`).join(", ")} }
for _, entry in ipairs(entries) do
  local f = entry[2]
  local got = {}
  for i = 1, #f, 2 do got[f[i]] = f[i + 1] end
  if got.jobId == ARGV[1] and wanted[got.event] then
    out[#out + 1] = {
      entry[1], got.event, got.attempt or '', got.error or '', got.nextAttemptAt or '', got.action or '',
    }
  end
end
return out
`,
};

/**
 * One slice of a job search over a state's list or set: looks at up to
 * `budget` members from a position, keeps those that pass the time range,
 * the id prefix and a plain-text prefilter of one field, and returns them
 * with their row and that field as stored. Stops early once
 * `byteBudget` bytes of fields were read, or, with no condition (kind ``),
 * once `want` are found; a field over `maxBytes`
 * (HSTRLEN, O(1)) is not read and counts as skipped.
 *
 * KEYS[1] = the list or set; KEYS[2] = the prioritized set (mode `waiting`).
 * ARGV = jobPrefix, mode, wanted state, at, skip, budget, want, from, to,
 * idPrefix, field, kind, needleA, needleB, maxBytes, byteBudget, logEntries.
 * Modes: `finished` (newest first from score `at` down to `from`, skipping
 * the first `skip` of score `at`; the range is `[from, to]` of the score),
 * `list` (`active` from its head), `waiting` (the wait list from its tail,
 * then the prioritized set), `delayed` (by run time; only jobs whose hash
 * state is the wanted one). Outside `finished` the range is on `ts`.
 * Kinds: `contains` (either needle in the ASCII-lowercased field), `value`
 * (either needle in the field), `` (no condition).
 *
 * Returns `{ total, looked, skipped, nextAt ("" at the end), nextSkip,
 * {id, score, {fields}, field, afterAt, afterSkip, index, skippedBefore},
 * ... }` (`field`: the raw string, or the log entries as a list; `afterAt`
 * and `afterSkip`: the position just past the member, `index` its place in
 * the slice from 1, `skippedBefore` the members skipped before it).
 */
export const SEARCH_SLICE: LuaScript = {
  name: "search-slice",
  source: `${ROW_FIELDS}${WAITING_IDS}${ADD_SCORED}
local prefix, mode, wanted = ARGV[1], ARGV[2], ARGV[3]
local at, skip = ARGV[4], tonumber(ARGV[5])
local budget, want = tonumber(ARGV[6]), tonumber(ARGV[7])
local from, to = tonumber(ARGV[8]), tonumber(ARGV[9])
local idPrefix, field, kind = ARGV[10], ARGV[11], ARGV[12]
local needleA, needleB = ARGV[13], ARGV[14]
local maxBytes, byteBudget, logEntries = tonumber(ARGV[15]), tonumber(ARGV[16]), tonumber(ARGV[17])

local ids, scores, total = {}, {}, 0
local start = tonumber(at) or 0
if mode == 'finished' then
  local lo = from and ARGV[8] or '-inf'
  local top = to and ARGV[9] or '+inf'
  total = redis.call('ZCOUNT', KEYS[1], lo, top)
  local hi = (at ~= '') and at or top
  local got = redis.call('ZREVRANGEBYSCORE', KEYS[1], hi, lo, 'WITHSCORES', 'LIMIT', skip, budget)
  addScored(got, ids, scores)
elseif mode == 'list' then
  total = redis.call('LLEN', KEYS[1])
  ids = redis.call('LRANGE', KEYS[1], start, start + budget - 1)
elseif mode == 'waiting' then
  ids, total = waitingIds(KEYS[1], KEYS[2], start, budget)
else
  total = redis.call('ZCARD', KEYS[1])
  local got = redis.call('ZRANGE', KEYS[1], start, start + budget - 1, 'WITHSCORES')
  addScored(got, ids, scores)
end

-- ARGV[18]: '1' when a masked key cannot be looked for here (not ASCII); ARGV[19..]: each
-- masked key, lowercased and escaped as inside a JSON string. Text that may hold a masked value, or spell
-- a key with an escape, is a candidate whatever the needle: what redaction hides never
-- decides which jobs travel back, so a right guess costs what a wrong one does.
local maskedUnknown = ARGV[18] == '1'
local function mayHide(text)
  if maskedUnknown then return true end
  if #ARGV < 19 then return false end
  if string.find(text, '\\\\u', 1, true) then return true end
  local lower = string.lower(text)
  for i = 19, #ARGV do
    if string.find(lower, ARGV[i], 1, true) then return true end
  end
  return false
end

local function hit(text)
  if mayHide(text) then return true end
  if kind == 'contains' then text = string.lower(text) end
  return string.find(text, needleA, 1, true) ~= nil or string.find(text, needleB, 1, true) ~= nil
end

-- Where a search stopping after the i-th member continues: for a finished set, the
-- score of the run it ends and how many of that score were seen (those before the
-- slice included); else an index.
local runAt, runCount = at, skip
local function afterAt(i)
  if mode ~= 'finished' then return tostring(start + i), 0 end
  if tonumber(scores[i]) == tonumber(runAt) then runCount = runCount + 1
  else runAt, runCount = scores[i], 1 end
  return runAt, runCount
end

-- Without a payload condition the slice stops at want; with one it looks at the whole
-- slice, so where it ends never depends on what the prefilter saw in unredacted text.
local found, looked, skipped, bytes = {}, 0, 0, 0
local nextAt, nextSkip = '', 0
for i, id in ipairs(ids) do
  if (kind == '' and #found >= want) or bytes >= byteBudget then break end
  looked = i
  nextAt, nextSkip = afterAt(i)
  local skippedBefore = skipped
  local key = prefix .. id
  local keep = idPrefix == '' or string.sub(id, 1, #idPrefix) == idPrefix
  if keep and mode == 'delayed' then
    keep = (redis.call('HGET', key, 'state') == 'retrying') == (wanted == 'retrying')
  end
  if keep and mode ~= 'finished' and (from or to) then
    local ts = tonumber(redis.call('HGET', key, 'ts'))
    keep = ts ~= nil and (not from or ts >= from) and (not to or ts <= to)
  end
  local value = false
  if keep and field == 'logs' then
    local entries = redis.call('LRANGE', key .. ':logs', -logEntries, -1)
    keep = false
    for _, entry in ipairs(entries) do
      bytes = bytes + #entry
      if hit(entry) then keep = true end
    end
    value = entries
  elseif keep and field ~= '' then
    local size = redis.call('HSTRLEN', key, field)
    if size > maxBytes then
      skipped = skipped + 1
      keep = false
    else
      bytes = bytes + size
      value = redis.call('HGET', key, field)
      keep = value ~= false and (kind == '' or hit(value))
    end
  end
  if keep then
    local fields = row(key)
    if #fields > 0 then
      found[#found + 1] = { id, scores[i] or '', fields, value, nextAt, nextSkip, i, skippedBefore }
    end
  end
end

if not (looked < #ids or #ids >= budget) then nextAt, nextSkip = '', 0 end
local out = { total, looked, skipped, nextAt, nextSkip }
for _, entry in ipairs(found) do out[#out + 1] = entry end
return out
`,
};
