/**
 * The bulk operations in Redis: one hash, `<root>:board:operations`, that
 * every board replica on the keyspace shares. Per operation `<id>` it holds
 * `o:<id>` (the record as JSON), `r:<id>` (the selection and reason, written
 * once), `u:<id>` (the cursor), `s:<id>` (the status), `w:<id>` (the replica
 * holding the lease), `l:<id>` (when the lease runs out, ms), `c:<id>` (a
 * cancel was asked) and `f:<id>` (when it finished, ms).
 *
 * One key: every script names only it, so each is one atomic step on one
 * slot, on a Cluster too. Bounded: at most `maxRunning` running and `keep`
 * finished operations (trimmed by the scripts that create or end one), and
 * the hash expires `keepMs` after its last write.
 *
 * @module
 */

import type { BulkOperation } from "../../contract/bulk.ts";
import type {
  LeaseState,
  OperationClaim,
  OperationCursor,
  OperationLimits,
  OperationSave,
  OperationStore,
  StoredOperation,
} from "../operation_store.ts";
import { operationsKey } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

/** Lua helpers: the running ids, and the trim of finished operations to the limits. */
const HELPERS = `
local function runningIds(key)
  local ids = {}
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, 2) == 's:' and redis.call('HGET', key, field) == 'running' then
      ids[#ids + 1] = string.sub(field, 3)
    end
  end
  return ids
end
local function trim(key, now, keep, keepMs)
  local finished = {}
  for _, field in ipairs(redis.call('HKEYS', key)) do
    if string.sub(field, 1, 2) == 'f:' then
      finished[#finished + 1] = { string.sub(field, 3), tonumber(redis.call('HGET', key, field)) }
    end
  end
  table.sort(finished, function(a, b) return a[2] > b[2] end)
  for i, entry in ipairs(finished) do
    if i > keep or now - entry[2] > keepMs then
      local id = entry[1]
      redis.call('HDEL', key, 'o:' .. id, 'r:' .. id, 'u:' .. id, 's:' .. id, 'w:' .. id,
        'l:' .. id, 'c:' .. id, 'f:' .. id)
    end
  end
end
`;

/**
 * KEYS[1] the hash; ARGV: id, record, selection, cursor, runner, lease end,
 * maxRunning, keep, keepMs, now, ttl. 0 when maxRunning run already.
 */
const CREATE: LuaScript = {
  name: "operation-create",
  writes: true,
  source: `${HELPERS}
if #runningIds(KEYS[1]) >= tonumber(ARGV[7]) then return 0 end
local id = ARGV[1]
redis.call('HSET', KEYS[1], 'o:' .. id, ARGV[2], 'r:' .. id, ARGV[3], 'u:' .. id, ARGV[4],
  's:' .. id, 'running', 'w:' .. id, ARGV[5], 'l:' .. id, ARGV[6])
trim(KEYS[1], tonumber(ARGV[10]), tonumber(ARGV[8]), tonumber(ARGV[9]))
redis.call('PEXPIRE', KEYS[1], ARGV[11])
return 1
`,
};

/**
 * KEYS[1] the hash; ARGV: id, runner, lease end, record ('' for none),
 * cursor, status, finishedAt, keep, keepMs, now, ttl. `{held, cancel}`.
 */
const SAVE: LuaScript = {
  name: "operation-save",
  writes: true,
  source: `${HELPERS}
local id = ARGV[1]
if redis.call('HGET', KEYS[1], 'w:' .. id) ~= ARGV[2]
  or redis.call('HGET', KEYS[1], 's:' .. id) ~= 'running' then
  return { 0, 0 }
end
local cancel = redis.call('HEXISTS', KEYS[1], 'c:' .. id)
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'o:' .. id, ARGV[4], 'u:' .. id, ARGV[5], 's:' .. id, ARGV[6])
end
if ARGV[6] == 'running' then
  redis.call('HSET', KEYS[1], 'l:' .. id, ARGV[3])
else
  redis.call('HSET', KEYS[1], 'f:' .. id, ARGV[7])
  redis.call('HDEL', KEYS[1], 'l:' .. id, 'c:' .. id)
  trim(KEYS[1], tonumber(ARGV[10]), tonumber(ARGV[8]), tonumber(ARGV[9]))
end
redis.call('PEXPIRE', KEYS[1], ARGV[11])
return { 1, cancel }
`,
};

/** KEYS[1] the hash; ARGV[1] the id. Flags a running one; `{record, runner}`, or nil. */
const CANCEL: LuaScript = {
  name: "operation-cancel",
  writes: true,
  source: `
local id = ARGV[1]
local status = redis.call('HGET', KEYS[1], 's:' .. id)
if not status then return false end
if status == 'running' then redis.call('HSET', KEYS[1], 'c:' .. id, '1') end
return { redis.call('HGET', KEYS[1], 'o:' .. id), redis.call('HGET', KEYS[1], 'w:' .. id) or '' }
`,
};

/** KEYS[1] the hash. `{record, runner, record, runner, ...}` of every operation kept. */
const LIST: LuaScript = {
  name: "operation-list",
  source: `
local out = {}
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, 2) == 's:' then
    local id = string.sub(field, 3)
    out[#out + 1] = redis.call('HGET', KEYS[1], 'o:' .. id) or ''
    out[#out + 1] = redis.call('HGET', KEYS[1], 'w:' .. id) or ''
  end
end
return out
`,
};

/**
 * KEYS[1] the hash; ARGV: runner, now, lease end. Gives `runner` the
 * first running operation whose lease ended before now: `{running, id,
 * previous runner, record, selection, cursor, cancel}`; `{running}` when none.
 */
const CLAIM: LuaScript = {
  name: "operation-claim",
  writes: true,
  source: `${HELPERS}
local ids = runningIds(KEYS[1])
for _, id in ipairs(ids) do
  if tonumber(redis.call('HGET', KEYS[1], 'l:' .. id) or '0') < tonumber(ARGV[2]) then
    local from = redis.call('HGET', KEYS[1], 'w:' .. id) or ''
    redis.call('HSET', KEYS[1], 'w:' .. id, ARGV[1], 'l:' .. id, ARGV[3])
    return { #ids, id, from, redis.call('HGET', KEYS[1], 'o:' .. id),
      redis.call('HGET', KEYS[1], 'r:' .. id), redis.call('HGET', KEYS[1], 'u:' .. id),
      redis.call('HEXISTS', KEYS[1], 'c:' .. id) }
  end
end
return { #ids }
`,
};

/** The selection and reason, as `r:<id>` keeps them. */
interface Selection {
  selector: StoredOperation["selector"];
  reason: string | null;
}

function recordOf(json: string, runner: string): BulkOperation {
  return { ...JSON.parse(json) as BulkOperation, runner: runner === "" ? null : runner };
}

function decode(
  record: string,
  runner: string,
  selectionJson: string,
  cursor: string,
  cancelRequested: boolean,
  leaseUntil: number,
): StoredOperation {
  const selection = JSON.parse(selectionJson) as Selection;
  return {
    operation: recordOf(record, runner),
    selector: selection.selector,
    reason: selection.reason,
    cursor: JSON.parse(cursor) as OperationCursor,
    cancelRequested,
    leaseUntil,
  };
}

/** The operations of one keyspace; the hash outlives its last write by `keepMs`. */
export class RedisOperations implements OperationStore {
  readonly #connection: RedisConnection;
  readonly #key: string;

  /** The store of the keyspace under `prefix`, on `connection`. */
  constructor(connection: RedisConnection, prefix: string | undefined) {
    this.#connection = connection;
    this.#key = operationsKey(prefix);
  }

  async create(stored: StoredOperation, limits: OperationLimits, now: number): Promise<boolean> {
    const { operation } = stored;
    const selection: Selection = { selector: stored.selector, reason: stored.reason };
    const created = await this.#connection.call<number>({
      script: CREATE,
      keys: [this.#key],
      args: [
        operation.id,
        JSON.stringify(operation),
        JSON.stringify(selection),
        JSON.stringify(stored.cursor),
        operation.runner ?? "",
        stored.leaseUntil,
        limits.maxRunning,
        limits.keep,
        limits.keepMs,
        now,
        limits.keepMs,
      ],
    });
    return created === 1;
  }

  async get(id: string): Promise<StoredOperation | null> {
    const [record, selection, cursor, runner, lease, cancel] = await this.#connection.call<
      (string | null)[]
    >(["HMGET", this.#key, `o:${id}`, `r:${id}`, `u:${id}`, `w:${id}`, `l:${id}`, `c:${id}`]);
    if (record === null || selection === null || cursor === null) return null;
    return decode(record, runner ?? "", selection, cursor, cancel !== null, Number(lease ?? 0));
  }

  async list(): Promise<BulkOperation[]> {
    const flat = await this.#connection.call<string[]>({
      script: LIST,
      keys: [this.#key],
      args: [],
    });
    const operations: BulkOperation[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) {
      if (flat[i] !== "") operations.push(recordOf(flat[i], flat[i + 1]));
    }
    return operations;
  }

  async save(
    id: string,
    { runner, leaseUntil, progress, limits, now }: OperationSave,
  ): Promise<LeaseState> {
    const [held, cancel] = await this.#connection.call<[number, number]>({
      script: SAVE,
      keys: [this.#key],
      args: [
        id,
        runner,
        leaseUntil,
        progress ? JSON.stringify(progress.operation) : "",
        progress ? JSON.stringify(progress.cursor) : "",
        progress?.operation.status ?? "running",
        progress?.operation.finishedAt ?? 0,
        limits.keep,
        limits.keepMs,
        now,
        limits.keepMs,
      ],
    });
    return { held: held === 1, cancelRequested: cancel === 1 };
  }

  async cancel(id: string): Promise<BulkOperation | null> {
    const reply = await this.#connection.call<[string, string] | null>({
      script: CANCEL,
      keys: [this.#key],
      args: [id],
    });
    return reply && recordOf(reply[0], reply[1]);
  }

  async claim(runner: string, now: number, leaseUntil: number): Promise<OperationClaim> {
    const [running, , from, record, selection, cursor, cancel] = await this.#connection.call<
      [number, string?, string?, string?, string?, string?, number?]
    >({ script: CLAIM, keys: [this.#key], args: [runner, now, leaseUntil] });
    if (record === undefined || selection === undefined || cursor === undefined) {
      return { running, claimed: null };
    }
    const stored = decode(record, runner, selection, cursor, cancel === 1, leaseUntil);
    return { running, claimed: { stored, from: from ? from : null } };
  }
}
