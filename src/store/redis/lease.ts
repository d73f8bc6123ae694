/**
 * A named lease in Redis that every board replica on the keyspace shares:
 * `<root>:board:lease:<name>` holds its holder's id with a TTL. Every take
 * or renewal is one script that compares the holder first (and takes a
 * free lease, `SET NX PX`), as is giving back, so a holder whose lease ran
 * out and was taken by another never renews or deletes the other's. A
 * follower between its takes reads only the lease's PTTL.
 *
 * @module
 */

import type { LeaseHold } from "../../leadership.ts";
import { boardKeys } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

/**
 * KEYS[1] the lease; ARGV[1] the holder, ARGV[2] the period (ms). Renews
 * the holder's lease or takes a free one; returns `{ held, ms left }`.
 */
const HOLD_LEASE: LuaScript = {
  name: "hold-lease",
  writes: true,
  source: `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tonumber(ARGV[2])}
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])
  return {1, tonumber(ARGV[2])}
end
return {0, redis.call('PTTL', KEYS[1])}
`,
};

/** KEYS[1] the lease; ARGV[1] the holder. Deletes the lease when the holder holds it. */
const RELEASE_LEASE: LuaScript = {
  name: "release-lease",
  writes: true,
  source: `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`,
};

/**
 * Takes the lease for `holder` when it is free, or renews it if `holder`
 * holds it: one script, three commands as Redis counts them. Not a `SET NX`
 * first: it fails whenever the lease is held, at every turn but a board's
 * first, a command more each turn of every board on the keyspace.
 */
export async function holdLease(
  connection: RedisConnection,
  name: string,
  holder: string,
  ttlMs: number,
  prefix?: string,
): Promise<LeaseHold> {
  const key = boardKeys(prefix).lease(name);
  const ms = Math.max(1, Math.ceil(ttlMs));
  const [held, left] = await connection.call<[number, number]>({
    script: HOLD_LEASE,
    keys: [key],
    args: [holder, ms],
  });
  return { held: held === 1, expiresInMs: Math.max(0, left) };
}

/**
 * How long the lease runs on, ms, whoever holds it (0 when nobody does):
 * one PTTL, what a follower sends between its takes instead of the script.
 */
export async function leaseRemaining(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<number> {
  const left = await connection.call<number>(["PTTL", boardKeys(prefix).lease(name)]);
  return Math.max(0, left);
}

/** Gives the lease back when `holder` holds it: one script. */
export async function releaseLease(
  connection: RedisConnection,
  name: string,
  holder: string,
  prefix?: string,
): Promise<void> {
  await connection.call({
    script: RELEASE_LEASE,
    keys: [boardKeys(prefix).lease(name)],
    args: [holder],
  });
}
