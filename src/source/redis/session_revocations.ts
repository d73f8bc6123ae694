/**
 * The session revocations in Redis: one hash, `<root>:board:sessions`
 * (`*` → everyone's, `u:<user>` → one user's, ms), shared by every board
 * replica. A revocation is one script, so it keeps the table's bound the
 * same way as the in-memory table (`../session_revocations.ts`).
 *
 * @module
 */

import { MAX_REVOKED_USERS, type SessionRevocations } from "../session_revocations.ts";
import { sessionsKey } from "../wire/keys.ts";
import type { RedisConnection } from "./client.ts";
import { fieldsOf } from "./jobs.ts";
import type { LuaScript } from "./scripts.ts";

const EVERYONE = "*";
const USER = "u:";

/**
 * KEYS[1] the hash; ARGV[1] the field (`*` or `u:<user>`), ARGV[2] the time
 * (ms), ARGV[3] the most user fields kept. Raises the field to the time;
 * everyone's drops the user fields it covers; past the bound, the oldest
 * user field is folded into everyone's.
 */
const REVOKE_SESSIONS: LuaScript = {
  name: "revoke-sessions",
  writes: true,
  source: `
local at = tonumber(ARGV[2])
local current = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
if at > current then redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) end
if ARGV[1] == '${EVERYONE}' then
  at = math.max(at, current)
  local all = redis.call('HGETALL', KEYS[1])
  for i = 1, #all, 2 do
    if all[i] ~= '${EVERYONE}' and tonumber(all[i + 1]) <= at then redis.call('HDEL', KEYS[1], all[i]) end
  end
  return 0
end
local everyone = redis.call('HGET', KEYS[1], '${EVERYONE}')
local users = redis.call('HLEN', KEYS[1]) - (everyone and 1 or 0)
if users <= tonumber(ARGV[3]) then return 0 end
local all = redis.call('HGETALL', KEYS[1])
local oldest, oldestAt = nil, nil
for i = 1, #all, 2 do
  local t = tonumber(all[i + 1])
  if all[i] ~= '${EVERYONE}' and (oldestAt == nil or t < oldestAt) then oldest, oldestAt = all[i], t end
end
redis.call('HDEL', KEYS[1], oldest)
if oldestAt > tonumber(everyone or '0') then redis.call('HSET', KEYS[1], '${EVERYONE}', oldestAt) end
return 1
`,
};

/** The revocations every board on the keyspace shares: one HGETALL. */
export async function getSessionRevocations(
  connection: RedisConnection,
  prefix?: string,
): Promise<SessionRevocations> {
  const flat = await connection.call<string[]>(["HGETALL", sessionsKey(prefix)]);
  const fields = fieldsOf(flat);
  const users = new Map<string, number>();
  let everyone = 0;
  for (const [field, value] of Object.entries(fields)) {
    const at = Number(value);
    if (!Number.isFinite(at)) continue;
    if (field === EVERYONE) everyone = at;
    else if (field.startsWith(USER)) users.set(field.slice(USER.length), at);
  }
  return { everyone, users };
}

/** Revokes `user`'s sessions (everyone's when null) signed in before `at`: one script. */
export async function revokeSessions(
  connection: RedisConnection,
  user: string | null,
  at: number,
  prefix?: string,
): Promise<void> {
  await connection.call({
    script: REVOKE_SESSIONS,
    keys: [sessionsKey(prefix)],
    args: [user === null ? EVERYONE : `${USER}${user}`, at, MAX_REVOKED_USERS],
  });
}
