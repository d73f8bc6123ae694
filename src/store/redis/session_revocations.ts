/**
 * The session revocations in Redis: one hash, `<root>:board:sessions`
 * (`*` → everyone's, `u:<user>` → one user's, ms; `n:<nonce>` → a signed-out
 * session, `<expiry, 0 for none>|<signed in at>|<user>`; `table` → the
 * table's random id, given when it was made), shared by every board replica.
 * A revocation or a sign-out is one script, so it keeps the table's bounds
 * the same way as the in-memory table (`../session_revocations.ts`); each
 * gives the table an id when it has none, so that a table lost with Redis's
 * data is told from one that never was, and from one made again.
 *
 * @module
 */

import {
  MAX_REVOKED_USERS,
  MAX_SIGNED_OUT_SESSIONS,
  type SessionRevocations,
  type SignedOutSession,
} from "../session_revocations.ts";
import { sessionsKey } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import { fieldsOf } from "../../source/redis/jobs.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

const EVERYONE = "*";
const USER = "u:";
const SESSION = "n:";
const TABLE = "table";

/**
 * What both scripts share, on the hash KEYS[1]: `revokeUser` raises a user's
 * field and, past `maxUsers` user fields, folds the oldest into everyone's;
 * `dropCovered` deletes the signed-out sessions a revocation covers, and
 * those expired by `now`.
 */
const SHARED = `
local key = KEYS[1]
local function signedOut(value)
  local a = string.find(value, '|', 1, true)
  local b = string.find(value, '|', a + 1, true)
  return tonumber(string.sub(value, 1, a - 1)), tonumber(string.sub(value, a + 1, b - 1)), string.sub(value, b + 1)
end
local function revokeUser(user, at, maxUsers)
  local field = '${USER}' .. user
  local current = tonumber(redis.call('HGET', key, field) or '0')
  if at > current then redis.call('HSET', key, field, at) end
  local all = redis.call('HGETALL', key)
  local users, oldest, oldestAt = 0, nil, nil
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, ${USER.length}) == '${USER}' then
      users = users + 1
      local t = tonumber(all[i + 1])
      if oldestAt == nil or t < oldestAt then oldest, oldestAt = all[i], t end
    end
  end
  if users <= maxUsers then return end
  redis.call('HDEL', key, oldest)
  local everyone = tonumber(redis.call('HGET', key, '${EVERYONE}') or '0')
  if oldestAt > everyone then redis.call('HSET', key, '${EVERYONE}', oldestAt) end
end
local function dropCovered(now)
  local all = redis.call('HGETALL', key)
  local everyone, users = 0, {}
  for i = 1, #all, 2 do
    if all[i] == '${EVERYONE}' then everyone = tonumber(all[i + 1])
    elseif string.sub(all[i], 1, ${USER.length}) == '${USER}' then users[string.sub(all[i], ${
  USER.length + 1
})] = tonumber(all[i + 1]) end
  end
  local kept = {}
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, ${SESSION.length}) == '${SESSION}' then
      local exp, iat, user = signedOut(all[i + 1])
      if (exp ~= 0 and exp <= now) or iat < math.max(everyone, users[user] or 0) then
        redis.call('HDEL', key, all[i])
      else
        kept[#kept + 1] = { all[i], iat, user }
      end
    end
  end
  return kept
end
`;

/**
 * ARGV[1] the field (`*` or `u:<user>`), ARGV[2] the time (ms, now), ARGV[3]
 * the most user fields kept, ARGV[4] an id for a table made now. Raises the field to the time; everyone's drops
 * the user fields it covers; past the bound, the oldest user field is folded
 * into everyone's. Drops the signed-out sessions now covered or expired.
 */
const REVOKE_SESSIONS: LuaScript = {
  name: "revoke-sessions",
  writes: true,
  source: `${SHARED}
redis.call('HSETNX', key, '${TABLE}', ARGV[4])
local at = tonumber(ARGV[2])
if ARGV[1] == '${EVERYONE}' then
  local current = tonumber(redis.call('HGET', key, '${EVERYONE}') or '0')
  if at > current then redis.call('HSET', key, '${EVERYONE}', ARGV[2]) end
  at = math.max(at, current)
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    if string.sub(all[i], 1, ${USER.length}) == '${USER}' and tonumber(all[i + 1]) <= at then redis.call('HDEL', key, all[i]) end
  end
else
  revokeUser(string.sub(ARGV[1], ${USER.length + 1}), at, tonumber(ARGV[3]))
end
dropCovered(tonumber(ARGV[2]))
return 0
`,
};

/**
 * ARGV[1] the nonce, ARGV[2] the cookie's expiry (ms, 0 for none), ARGV[3]
 * when it was signed in (ms), ARGV[4] its user, ARGV[5] now (ms), ARGV[6] the
 * most signed-out sessions kept, ARGV[7] the most user fields kept, ARGV[8]
 * an id for a table made now. Past the
 * bound, the session signed in first is folded into its user's revocation.
 */
const SIGN_OUT_SESSION: LuaScript = {
  name: "sign-out-session",
  writes: true,
  source: `${SHARED}
redis.call('HSETNX', key, '${TABLE}', ARGV[8])
redis.call('HSET', key, '${SESSION}' .. ARGV[1], ARGV[2] .. '|' .. ARGV[3] .. '|' .. ARGV[4])
local kept = dropCovered(tonumber(ARGV[5]))
if #kept <= tonumber(ARGV[6]) then return 0 end
local first = kept[1]
for i = 2, #kept do
  if kept[i][2] < first[2] then first = kept[i] end
end
redis.call('HDEL', key, first[1])
revokeUser(first[3], first[2] + 1, tonumber(ARGV[7]))
dropCovered(tonumber(ARGV[5]))
return 1
`,
};

/**
 * KEYS[1] the hash; ARGV[1] an id for a table made now; ARGV[2] now (ms),
 * when the table was lost. Gives the table the id when it has none; a lost
 * table also refuses every session signed in before now (raises
 * everyone's). Returns the table's id.
 */
const KEEP_REVOCATIONS: LuaScript = {
  name: "keep-session-revocations",
  writes: true,
  source: `
redis.call('HSETNX', KEYS[1], '${TABLE}', ARGV[1])
if ARGV[2] ~= '' then
  local everyone = tonumber(redis.call('HGET', KEYS[1], '${EVERYONE}') or '0')
  if tonumber(ARGV[2]) > everyone then redis.call('HSET', KEYS[1], '${EVERYONE}', ARGV[2]) end
end
return redis.call('HGET', KEYS[1], '${TABLE}')
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
  const sessions = new Map<string, number>();
  let everyone = 0;
  let table: string | null = null;
  for (const [field, value] of Object.entries(fields)) {
    if (field === TABLE) {
      table = value;
      continue;
    }
    if (field.startsWith(SESSION)) {
      const exp = Number(value.slice(0, value.indexOf("|")));
      if (Number.isFinite(exp)) {
        sessions.set(field.slice(SESSION.length), exp === 0 ? Infinity : exp);
      }
      continue;
    }
    const at = Number(value);
    if (!Number.isFinite(at)) continue;
    if (field === EVERYONE) everyone = at;
    else if (field.startsWith(USER)) users.set(field.slice(USER.length), at);
  }
  return { everyone, users, sessions, table };
}

/**
 * Gives the table an id when Redis holds none, and when it was `lostAt`
 * (ms, now) refuses every session signed in before then: one script.
 * Returns the table's id.
 */
export async function keepSessionRevocations(
  connection: RedisConnection,
  lostAt: number | null,
  prefix?: string,
): Promise<string> {
  return await connection.call<string>({
    script: KEEP_REVOCATIONS,
    keys: [sessionsKey(prefix)],
    args: [crypto.randomUUID(), lostAt ?? ""],
  });
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
    args: [user === null ? EVERYONE : `${USER}${user}`, at, MAX_REVOKED_USERS, crypto.randomUUID()],
  });
}

/** Signs out one session until its cookie expires: one script. */
export async function signOutSession(
  connection: RedisConnection,
  session: SignedOutSession,
  now: number,
  prefix?: string,
): Promise<void> {
  await connection.call({
    script: SIGN_OUT_SESSION,
    keys: [sessionsKey(prefix)],
    args: [
      session.nonce,
      session.exp ?? 0,
      session.iat,
      session.user,
      now,
      MAX_SIGNED_OUT_SESSIONS,
      MAX_REVOKED_USERS,
      crypto.randomUUID(),
    ],
  });
}
