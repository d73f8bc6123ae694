/**
 * What operators set for the alerts through the API, in Redis beside the
 * evaluator's states: the stored rules (`<root>:board:alerts:rules`, a hash
 * name → JSON) and the silences (`<root>:board:alerts:silences`, a hash id
 * → JSON). Each write is one script, so the bound holds for every board on
 * the keyspace; adding a silence first drops the ended ones. Reads are one
 * HGETALL of a bounded hash; what does not decode is left out.
 *
 * @module
 */

import type { AlertRule, AlertSilence, RuleSaveOutcome } from "../../contract/alerts.ts";
import { alertKeys } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

/**
 * KEYS[1] the rules hash; ARGV[1] the name, ARGV[2] the JSON, ARGV[3]
 * `create` or `replace`, ARGV[4] the most rules kept.
 */
const SAVE_RULE: LuaScript = {
  name: "save-alert-rule",
  writes: true,
  source: `
local exists = redis.call('HEXISTS', KEYS[1], ARGV[1])
if ARGV[3] == 'create' and exists == 1 then return 'exists' end
if ARGV[3] == 'replace' and exists == 0 then return 'missing' end
if exists == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 'full' end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 'saved'
`,
};

/**
 * KEYS[1] the silences hash; ARGV[1] the id, ARGV[2] the JSON, ARGV[3] now
 * (ms), ARGV[4] the most silences kept. Drops the silences ended by now
 * (and what does not decode), then adds unless the bound is reached: 1 or 0.
 */
const ADD_SILENCE: LuaScript = {
  name: "add-alert-silence",
  writes: true,
  source: `
local now = tonumber(ARGV[3])
local all = redis.call('HGETALL', KEYS[1])
for i = 1, #all, 2 do
  local ok, silence = pcall(cjson.decode, all[i + 1])
  if not ok or type(silence) ~= 'table' or type(silence['until']) ~= 'number' or silence['until'] <= now then
    redis.call('HDEL', KEYS[1], all[i])
  end
end
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`,
};

function decoded<T>(flat: readonly string[], is: (value: unknown) => value is T): T[] {
  const values: T[] = [];
  for (let i = 1; i < flat.length; i += 2) {
    try {
      const value = JSON.parse(flat[i]);
      if (is(value)) values.push(value);
    } catch {
      // Not ours to answer as an error: left out.
    }
  }
  return values;
}

function isRule(value: unknown): value is AlertRule {
  const rule = value as AlertRule | null;
  return typeof rule?.name === "string" && typeof rule.kind === "string" &&
    typeof rule.threshold === "number" && Array.isArray(rule.sinks);
}

function isSilence(value: unknown): value is AlertSilence {
  const silence = value as AlertSilence | null;
  return typeof silence?.id === "string" && typeof silence.until === "number" &&
    (silence.scope === "all" || typeof silence.scope === "object");
}

/** The stored rules, by name: one HGETALL. */
export async function listAlertRules(
  connection: RedisConnection,
  prefix?: string,
): Promise<AlertRule[]> {
  const flat = await connection.call<string[]>(["HGETALL", alertKeys(prefix).rules]);
  return decoded(flat, isRule).sort((a, b) => a.name.localeCompare(b.name));
}

/** Stores a rule (`create`: a new name; `replace`: an existing one), within `max`: one script. */
export async function saveAlertRule(
  connection: RedisConnection,
  rule: AlertRule,
  mode: "create" | "replace",
  max: number,
  prefix?: string,
): Promise<RuleSaveOutcome> {
  return await connection.call<RuleSaveOutcome>({
    script: SAVE_RULE,
    keys: [alertKeys(prefix).rules],
    args: [rule.name, JSON.stringify(rule), mode, max],
  });
}

/** Removes a stored rule: whether there was one. */
export async function removeAlertRule(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<boolean> {
  return await connection.call<number>(["HDEL", alertKeys(prefix).rules, name]) === 1;
}

/** The silences kept (ended ones too, until the next add drops them): one HGETALL. */
export async function listAlertSilences(
  connection: RedisConnection,
  prefix?: string,
): Promise<AlertSilence[]> {
  const flat = await connection.call<string[]>(["HGETALL", alertKeys(prefix).silences]);
  return decoded(flat, isSilence).sort((a, b) => a.createdAt - b.createdAt);
}

/** Adds a silence after dropping the ended ones; false when `max` are in force: one script. */
export async function addAlertSilence(
  connection: RedisConnection,
  silence: AlertSilence,
  now: number,
  max: number,
  prefix?: string,
): Promise<boolean> {
  return await connection.call<number>({
    script: ADD_SILENCE,
    keys: [alertKeys(prefix).silences],
    args: [silence.id, JSON.stringify(silence), now, max],
  }) === 1;
}

/** Removes a silence: whether there was one. */
export async function removeAlertSilence(
  connection: RedisConnection,
  id: string,
  prefix?: string,
): Promise<boolean> {
  return await connection.call<number>(["HDEL", alertKeys(prefix).silences, id]) === 1;
}
