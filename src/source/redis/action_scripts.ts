/**
 * The board's Lua scripts that change the keyspace. Each one is atomic and
 * touches keys of one `{task}` slot (or one workflow hash, or the two
 * schedule keys), and leaves Redis exactly as taskora's own scripts would:
 * the same hash fields, the same list or set, the wake-up marker, and the
 * same event on the task's stream (capped with `MAXLEN ~ 10000`).
 *
 * The reference for every write is taskora's `redis/scripts.ts` and
 * `redis/workflow-scripts.ts` (wire format 6); each script below names the
 * upstream script whose effect it reproduces and where it differs, and why.
 *
 * Scripts that loop take a bounded number of members per call, so Redis is
 * never blocked for long; the callers loop.
 *
 * @module
 */

import type { LuaScript } from "./scripts.ts";

/** Members a bulk retry moves per script call. */
export const RETRY_BATCH = 100;

/** Jobs a clean removes per script call. */
export const CLEAN_BATCH = 500;

/**
 * `requeue(id, now, nowText)`: puts a finished job back to waiting as a fresh
 * dispatch, as taskora's RETRY_DLQ does: `state=waiting`, `attempt=1`,
 * `ts=now`; `error`, `finishedOn`, `result` deleted; LPUSH on the wait list
 * (priority 0) or ZADD on the prioritized set (score `-priority*1e13 + ts`);
 * a `waiting` event. The caller sets the marker. Logs stay, as upstream
 * leaves them.
 *
 * Differs from upstream, which deletes only `error`, `finishedOn` and
 * `result`: the job is left as a fresh ENQUEUE leaves it, so also
 * - `cancelledAt`, `cancelReason`: a worker reads `cancelledAt` on an active
 *   job as "cancel requested" (EXTEND_LOCK, STALLED_CHECK) and would cancel
 *   the retried run at once (a job flagged while active can end `failed`);
 * - `stalledCount`: STALLED_CHECK fails a job whose count passes the limit,
 *   so a job that failed by stalling would fail at its first stall again;
 * - `processedOn`, `progress`: the last attempt's, which no worker reads
 *   before writing them again (MOVE_TO_ACTIVE sets `processedOn`);
 * - `delay`: the first dispatch's, which no worker reads; kept, it would put
 *   the fresh job's run-at (`ts + delay`, see `queuedSince`) in the future.
 *
 * Needs locals `prefix`, `waitKey`, `prioritizedKey`, `eventsKey`.
 */
const REQUEUE_FN = `
local function requeue(id, now, nowText)
  local jobKey = prefix .. id
  redis.call('HSET', jobKey, 'state', 'waiting', 'attempt', 1, 'ts', nowText)
  redis.call('HDEL', jobKey, 'error', 'finishedOn', 'result',
    'cancelledAt', 'cancelReason', 'stalledCount', 'processedOn', 'progress', 'delay')
  local priority = tonumber(redis.call('HGET', jobKey, 'priority') or '0') or 0
  if priority > 0 then
    redis.call('ZADD', prioritizedKey, -priority * 1e13 + now, id)
  else
    redis.call('LPUSH', waitKey, id)
  end
  redis.call('XADD', eventsKey, 'MAXLEN', '~', 10000, '*', 'event', 'waiting', 'jobId', id)
end
`;

/**
 * Sends one failed or cancelled job back to waiting (see `requeue`).
 * The state is checked inside the script, so of two concurrent retries of
 * one job only the first requeues it; the second sees `waiting`.
 *
 * With a fifth ARGV the job's `data` field is replaced by it (the data
 * serialized, as taskora's ENQUEUE stores it) in the same step, so a job
 * refused keeps its data and a worker never sees the new data on the old run.
 *
 * KEYS = wait, prioritized, marker, events, failed, cancelled.
 * ARGV = jobPrefix, jobId, now, allowed states (comma-separated)[, data].
 * Returns `{"missing"}`, `{"refused", state}` or `{"done", previous state}`.
 */
export const RETRY_JOB: LuaScript = {
  name: "retry-job",
  writes: true,
  source: `
local prefix = ARGV[1]
local waitKey, prioritizedKey, eventsKey = KEYS[1], KEYS[2], KEYS[4]
${REQUEUE_FN}
local id = ARGV[2]
local state = redis.call('HGET', prefix .. id, 'state')
if not state then return { 'missing' } end
local allowed = false
for wanted in string.gmatch(ARGV[4], '[^,]+') do
  if wanted == state then allowed = true end
end
if not allowed then return { 'refused', state } end
if #ARGV >= 5 then redis.call('HSET', prefix .. id, 'data', ARGV[5]) end
if state == 'failed' then
  redis.call('ZREM', KEYS[5], id)
else
  redis.call('ZREM', KEYS[6], id)
end
requeue(id, tonumber(ARGV[3]), ARGV[3])
redis.call('ZADD', KEYS[3], 0, '0')
return { 'done', state }
`,
};

/**
 * Sends the oldest `limit` members of a task's failed set back to waiting,
 * as taskora's RETRY_ALL_DLQ does (see `requeue`; one marker per batch).
 * A member whose hash is gone or no longer says `failed` is only removed
 * from the set.
 *
 * KEYS = wait, prioritized, marker, events, failed.
 * ARGV = jobPrefix, limit, now.
 * Returns `{ members taken, jobs requeued }`.
 */
export const RETRY_FAILED_BATCH: LuaScript = {
  name: "retry-failed-batch",
  writes: true,
  source: `
local prefix = ARGV[1]
local waitKey, prioritizedKey, eventsKey = KEYS[1], KEYS[2], KEYS[4]
${REQUEUE_FN}
local now = tonumber(ARGV[3])
local ids = redis.call('ZRANGE', KEYS[5], 0, tonumber(ARGV[2]) - 1)
if #ids == 0 then return { 0, 0 } end
redis.call('ZREM', KEYS[5], unpack(ids))
local requeued = 0
for _, id in ipairs(ids) do
  if redis.call('HGET', prefix .. id, 'state') == 'failed' then
    requeue(id, now, ARGV[3])
    requeued = requeued + 1
  end
end
if requeued > 0 then redis.call('ZADD', KEYS[3], 0, '0') end
return { #ids, requeued }
`,
};

/**
 * `cancel(id)`: taskora's CANCEL for one job.
 * - waiting, delayed, retrying: removed from the wait list / prioritized
 *   set / delayed set, `state=cancelled`, `finishedOn=now`, `cancelReason`
 *   (when given), ZADD `:cancelled` scored now, its dedup key deleted, a
 *   `cancelled` event with `reason`. Differs: `cancelledAt=now` is set too
 *   (upstream sets it only on active jobs); nothing reads it on a finished
 *   job, and the board shows it as the cancel time.
 * - active: `cancelledAt=now`, `cancelReason` (when given), PUBLISH of the
 *   job id on the task's `:cancel` channel; the worker finishes the cancel.
 * Returns `'missing'`, `'cancelled'`, `'signalled'` or `'refused'`, and the
 * state the job was in.
 *
 * Needs locals `prefix`, `now` (text), `reason`, and the keys `waitKey`,
 * `prioritizedKey`, `delayedKey`, `cancelledKey`, `eventsKey`, `channel`.
 */
const CANCEL_FN = `
local function cancel(id)
  local jobKey = prefix .. id
  local state = redis.call('HGET', jobKey, 'state')
  if not state then return 'missing', false end
  if state == 'waiting' or state == 'delayed' or state == 'retrying' then
    if state == 'waiting' then
      if redis.call('LREM', waitKey, 1, id) == 0 then
        redis.call('ZREM', prioritizedKey, id)
      end
    else
      redis.call('ZREM', delayedKey, id)
    end
    redis.call('HSET', jobKey, 'state', 'cancelled', 'finishedOn', now, 'cancelledAt', now)
    if reason ~= '' then redis.call('HSET', jobKey, 'cancelReason', reason) end
    redis.call('ZADD', cancelledKey, tonumber(now), id)
    local dedupKey = redis.call('HGET', jobKey, 'dedupKey')
    if dedupKey then redis.call('DEL', dedupKey) end
    redis.call('XADD', eventsKey, 'MAXLEN', '~', 10000, '*',
      'event', 'cancelled', 'jobId', id, 'reason', reason)
    return 'cancelled', state
  end
  if state == 'active' then
    redis.call('HSET', jobKey, 'cancelledAt', now)
    if reason ~= '' then redis.call('HSET', jobKey, 'cancelReason', reason) end
    redis.call('PUBLISH', channel, id)
    return 'signalled', state
  end
  return 'refused', state
end
`;

const CANCEL_LOCALS = `
local prefix, now, reason = ARGV[1], ARGV[2], ARGV[3]
local waitKey, prioritizedKey, delayedKey = KEYS[1], KEYS[2], KEYS[3]
local cancelledKey, eventsKey, channel = KEYS[4], KEYS[5], KEYS[6]
`;

/**
 * Cancels one job (see `cancel`).
 *
 * KEYS = wait, prioritized, delayed, cancelled, events, cancel channel.
 * ARGV = jobPrefix, now, reason (`""` = none), jobId.
 * Returns `{ outcome, previous state }` (`{"missing"}` for no job).
 */
export const CANCEL_JOB: LuaScript = {
  name: "cancel-job",
  writes: true,
  source: `${CANCEL_LOCALS}${CANCEL_FN}
local outcome, state = cancel(ARGV[4])
if not state then return { outcome } end
return { outcome, state }
`,
};

/**
 * Cancels the node jobs of a cancelled workflow that belong to one task
 * (see `cancel`). A node whose job does not exist was never dispatched:
 * the workflow's own state already stops it, and it counts as cancelled.
 * Finished jobs are left as they are.
 *
 * KEYS = wait, prioritized, delayed, cancelled, events, cancel channel.
 * ARGV = jobPrefix, now, reason, jobId...
 * Returns `{ cancelled, signalled }`.
 */
export const CANCEL_NODE_JOBS: LuaScript = {
  name: "cancel-node-jobs",
  writes: true,
  source: `${CANCEL_LOCALS}${CANCEL_FN}
local cancelled, signalled = 0, 0
for i = 4, #ARGV do
  local outcome = cancel(ARGV[i])
  if outcome == 'cancelled' or outcome == 'missing' then
    cancelled = cancelled + 1
  elseif outcome == 'signalled' then
    signalled = signalled + 1
  end
end
return { cancelled, signalled }
`,
};

/**
 * Marks a running workflow cancelled, as taskora's CANCEL_WORKFLOW does:
 * `state=cancelled`, `error=reason` (when given), and every node still
 * `pending` or `active` gets `n:<i>:state=cancelled`. Returns those nodes so
 * the caller cancels their jobs, task by task. Unlike upstream, which hands
 * back only `active` nodes, `pending` ones are returned too: taskora leaves
 * root nodes `pending` while their jobs wait or run.
 *
 * KEYS = workflow hash. ARGV = reason (`""` = none).
 * Returns `{"missing"}`, `{"refused", state}` or `{"done", task, jobId, ...}`.
 */
export const CANCEL_WORKFLOW: LuaScript = {
  name: "cancel-workflow",
  writes: true,
  source: `
local key, reason = KEYS[1], ARGV[1]
local state = redis.call('HGET', key, 'state')
local graphJson = redis.call('HGET', key, 'graph')
if not state or not graphJson then return { 'missing' } end
if state ~= 'running' then return { 'refused', state } end
redis.call('HSET', key, 'state', 'cancelled')
if reason ~= '' then redis.call('HSET', key, 'error', reason) end
local out = { 'done' }
for i, node in ipairs(cjson.decode(graphJson).nodes) do
  local field = 'n:' .. (i - 1) .. ':state'
  local nodeState = redis.call('HGET', key, field)
  if not nodeState or nodeState == 'pending' or nodeState == 'active' then
    redis.call('HSET', key, field, 'cancelled')
    out[#out + 1] = node.taskName
    out[#out + 1] = node.jobId
  end
end
return out
`,
};

/**
 * Removes up to `limit` jobs of a finished set whose score (finish time) is
 * at most the cutoff: the set entry, the job hash and its `:logs` and
 * `:lock` keys, as taskora's CLEAN_JOBS does.
 *
 * KEYS = the finished set. ARGV = jobPrefix, cutoff (ms or `+inf`), limit.
 * Returns how many jobs were removed.
 */
export const CLEAN_FINISHED: LuaScript = {
  name: "clean-finished",
  writes: true,
  source: `
local prefix = ARGV[1]
local ids = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
if #ids == 0 then return 0 end
redis.call('ZREM', KEYS[1], unpack(ids))
for _, id in ipairs(ids) do
  local jobKey = prefix .. id
  redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':lock')
end
return #ids
`,
};

/**
 * Dispatches one job of a schedule's task, exactly as taskora's ENQUEUE
 * writes a priority-0 dispatch: hash `ts, _v, attempt=1, maxAttempts,
 * state=waiting, priority=0, data`, LPUSH on the wait list, the marker, a
 * `waiting` event. `_v` and `maxAttempts` are those of the task's newest
 * jobs (they carry the task's version and retry config, which Redis holds
 * nowhere else): the schedule's last job plus the newest `sample` members
 * of the wait list, active list, delayed set and completed, failed and
 * cancelled sets; the highest `_v` wins, and `maxAttempts` comes from the
 * newest (`ts`) job that has it. No job to learn the version from: nothing
 * is written (`{ 2 }`), since a guessed `_v` makes a job that fails at once
 * (below the task's `since`) or is migrated again (already current).
 *
 * When a job hash with the id already exists, nothing is written: the id
 * was derived from an idempotency key, and this is the trigger sent again
 * (see `src/source/trigger_id.ts`). The check and the dispatch are one
 * script on the task's slot, so two triggers with one key make one job.
 *
 * KEYS = wait, marker, events, active, delayed, completed, failed, cancelled.
 * ARGV = jobPrefix, jobId, serialized data, now, lastJobId (`""` = none), sample.
 * Returns `{ 1, _v, maxAttempts }` when dispatched, `{ 0 }` when the job
 * existed, `{ 2 }` when no job says the task's version.
 */
export const TRIGGER_DISPATCH: LuaScript = {
  name: "trigger-dispatch",
  writes: true,
  source: `
local prefix, id, data, now = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('EXISTS', prefix .. id) == 1 then return { 0 } end
local sample = tonumber(ARGV[6])
local candidates = {}
if ARGV[5] ~= '' then candidates[1] = ARGV[5] end
local function add(ids) for _, c in ipairs(ids) do candidates[#candidates + 1] = c end end
add(redis.call('LRANGE', KEYS[1], 0, sample - 1))
add(redis.call('LRANGE', KEYS[4], 0, sample - 1))
for k = 5, 8 do add(redis.call('ZREVRANGE', KEYS[k], 0, sample - 1)) end

local version, maxAttempts, newest = nil, '1', -1
for _, c in ipairs(candidates) do
  local f = redis.call('HMGET', prefix .. c, '_v', 'maxAttempts', 'ts')
  local v, ts = tonumber(f[1]), tonumber(f[3]) or 0
  if v and (not version or v > version or (v == version and ts > newest)) then
    version, newest = v, ts
    if f[2] then maxAttempts = f[2] end
  end
end
if not version then return { 2 } end

redis.call('HSET', prefix .. id,
  'ts', now,
  '_v', version,
  'attempt', 1,
  'maxAttempts', maxAttempts,
  'state', 'waiting',
  'priority', 0,
  'data', data)
redis.call('LPUSH', KEYS[1], id)
redis.call('ZADD', KEYS[2], 0, '0')
redis.call('XADD', KEYS[3], 'MAXLEN', '~', 10000, '*', 'event', 'waiting', 'jobId', id)
return { 1, version, tonumber(maxAttempts) }
`,
};

/**
 * Sets or removes a schedule's next run (taskora's resumeSchedule ZADDs,
 * pauseSchedule and removeSchedule ZREM). `taskora:schedules` and
 * `taskora:schedules:next` share no hash tag, so on Redis Cluster no one
 * script may touch both: the hash and the next-run set are written by
 * separate calls, as taskora itself writes them (two commands, not atomic).
 *
 * KEYS = next-run set. ARGV = name, `remove` | `always` | `XX`, next run.
 * Returns 1.
 */
export const SCHEDULE_NEXT: LuaScript = {
  name: "schedule-next",
  writes: true,
  source: `
if ARGV[2] == 'remove' then
  redis.call('ZREM', KEYS[1], ARGV[1])
elseif ARGV[2] == 'XX' then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[3], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
`,
};

/**
 * Writes a schedule's config that the caller read and changed, provided
 * nobody changed it meanwhile (compare-and-set on the JSON); its next run
 * is set afterwards with {@link SCHEDULE_NEXT}.
 *
 * KEYS = schedules hash.
 * ARGV = name, the JSON read, the new JSON (`""` = unchanged).
 * Returns -1 (no such schedule), 0 (changed meanwhile: read again) or 1.
 */
export const SCHEDULE_WRITE: LuaScript = {
  name: "schedule-write",
  writes: true,
  source: `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if not current then return -1 end
if current ~= ARGV[2] then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], ARGV[1], ARGV[3]) end
return 1
`,
};

/**
 * Deletes a schedule's config (taskora's removeSchedule HDELs); its next
 * run goes with {@link SCHEDULE_NEXT}.
 *
 * KEYS = schedules hash. ARGV = name.
 * Returns 0 when no schedule had the name, else 1.
 */
export const SCHEDULE_REMOVE: LuaScript = {
  name: "schedule-remove",
  writes: true,
  source: `
return redis.call('HDEL', KEYS[1], ARGV[1])
`,
};

/**
 * One atomic step of a bulk action (`src/contract/bulk.ts`) on jobs of one
 * task: each job's state is read inside the script, so a job a worker moved
 * on meanwhile is left alone and reported, never acted on twice.
 * - `retry` (failed, cancelled, expired): leaves its finished set and is
 *   requeued (see `requeue`), as {@link RETRY_JOB} does.
 * - `cancel` (waiting, delayed, retrying, active): see `cancel`.
 * - `promote` (delayed, retrying): taskora's own promotion in MOVE_TO_ACTIVE:
 *   ZREM from the delayed set, LPUSH on the wait list (priority 0) or ZADD
 *   on the prioritized set scored `-priority*1e13 + ts` (the job's own
 *   `ts`), `state=waiting`, a `promoted` event. Unlike a retry it keeps its
 *   attempt. A job past its TTL is promoted too: the worker's claim expires it.
 * - `delete` (completed, failed, cancelled, expired): the set entry, the job
 *   hash, `:logs` and `:lock`, as taskora's CLEAN_JOBS does.
 * The marker is set once when any job went back to waiting.
 *
 * With mode `ids` the jobs are ARGV[11..], any of the allowed states. With
 * mode `state` they are the members `offset` to `offset + limit - 1` of the
 * state's list or set (waiting: the wait list from its head, then the
 * prioritized set), those in that state, at most ARGV[11] of them (the
 * step stops looking then); a member in another state (the delayed set
 * holds retrying jobs too) is passed over and stays. A finished job whose
 * set score (when it finished) is past ARGV[10] (0: no bound) is left
 * alone too (retry, delete): a worker ran it again since the operation
 * started.
 *
 * KEYS = wait, prioritized, delayed, cancelled, events, cancel channel,
 *   marker, active, completed, failed, expired.
 * ARGV = jobPrefix, now, reason (`""` = none), action, mode (`ids` |
 *   `state`), state, offset, limit, allowed states (comma-separated),
 *   finished-by bound (ms, 0 = none), then the ids (mode `ids`) or the
 *   most to act on (mode `state`).
 * Returns `{ examined, kept in place, signalled, { id, from, ... },
 *   { skipped id, state or "", ... } }`.
 */
export const BULK_STEP: LuaScript = {
  name: "bulk-step",
  writes: true,
  source: `${CANCEL_LOCALS}
local markerKey, activeKey = KEYS[7], KEYS[8]
local finishedKeys = { completed = KEYS[9], failed = KEYS[10], cancelled = KEYS[4], expired = KEYS[11] }
${REQUEUE_FN}${CANCEL_FN}
local action, mode, selected = ARGV[4], ARGV[5], ARGV[6]
local offset, limit = tonumber(ARGV[7]), tonumber(ARGV[8])
local allowed = {}
for s in string.gmatch(ARGV[9], '[^,]+') do allowed[s] = true end

local ids = {}
local function take(part) for _, id in ipairs(part) do ids[#ids + 1] = id end end
if mode == 'ids' then
  for i = 11, #ARGV do ids[#ids + 1] = ARGV[i] end
elseif selected == 'waiting' then
  local waitLen = redis.call('LLEN', waitKey)
  if offset < waitLen then take(redis.call('LRANGE', waitKey, offset, offset + limit - 1)) end
  if #ids < limit then
    local from = math.max(0, offset - waitLen)
    take(redis.call('ZRANGE', prioritizedKey, from, from + limit - #ids - 1))
  end
elseif selected == 'active' then
  take(redis.call('LRANGE', activeKey, offset, offset + limit - 1))
elseif selected == 'delayed' or selected == 'retrying' then
  take(redis.call('ZRANGE', delayedKey, offset, offset + limit - 1))
else
  take(redis.call('ZRANGE', finishedKeys[selected], offset, offset + limit - 1))
end

local most = #ids
if mode == 'state' then most = tonumber(ARGV[11]) end
local finishedBy = tonumber(ARGV[10])
local looked, kept, signalled, woke = 0, 0, 0, false
local done, skipped = {}, {}
local nowNumber = tonumber(now)
for _, id in ipairs(ids) do
  if #done / 2 >= most then break end
  looked = looked + 1
  local jobKey = prefix .. id
  local state = redis.call('HGET', jobKey, 'state')
  local set = finishedKeys[state or '']
  local again = finishedBy > 0 and set ~= nil and action ~= 'cancel'
    and tonumber(redis.call('ZSCORE', set, id) or '0') > finishedBy
  if not state or not allowed[state] or (mode == 'state' and state ~= selected) or again then
    if mode == 'state' then
      kept = kept + 1
    else
      skipped[#skipped + 1] = id
      skipped[#skipped + 1] = state or ''
    end
  else
    if action == 'retry' then
      redis.call('ZREM', finishedKeys[state], id)
      requeue(id, nowNumber, now)
      woke = true
    elseif action == 'cancel' then
      if cancel(id) == 'signalled' then
        signalled = signalled + 1
        kept = kept + 1
      end
    elseif action == 'promote' then
      redis.call('ZREM', delayedKey, id)
      local meta = redis.call('HMGET', jobKey, 'priority', 'ts')
      local priority = tonumber(meta[1]) or 0
      if priority > 0 then
        redis.call('ZADD', prioritizedKey, -priority * 1e13 + (tonumber(meta[2]) or 0), id)
      else
        redis.call('LPUSH', waitKey, id)
      end
      redis.call('HSET', jobKey, 'state', 'waiting')
      redis.call('XADD', eventsKey, 'MAXLEN', '~', 10000, '*', 'event', 'promoted', 'jobId', id)
      woke = true
    else
      redis.call('ZREM', finishedKeys[state], id)
      redis.call('DEL', jobKey, jobKey .. ':logs', jobKey .. ':lock')
    end
    done[#done + 1] = id
    done[#done + 1] = state
  end
end
if woke then redis.call('ZADD', markerKey, 0, '0') end
return { looked, kept, signalled, done, skipped }
`,
};
