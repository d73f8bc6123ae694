/**
 * What the leading board replica shares with the others, beside taskora's
 * keys: its results (`<root>:board:shared:<name>`, a string with a TTL,
 * so a result its leader stopped refreshing goes away by itself), and what
 * the others were asked for (`<root>:board:asked:<set>`, a sorted set of
 * members by when they were asked, capped at each write), so that the
 * leader keeps those fresh. One key per call: one slot each.
 *
 * @module
 */

import { boardKeys } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";

/** Shares `value` as `name` for `ttlMs`: one SET. */
export async function shareResult(
  connection: RedisConnection,
  name: string,
  value: string,
  ttlMs: number,
  prefix?: string,
): Promise<void> {
  await connection.call([
    "SET",
    boardKeys(prefix).shared(name),
    value,
    "PX",
    String(Math.max(1, Math.ceil(ttlMs))),
  ]);
}

/** The value shared as `name`, or null: one GET. */
export async function readSharedResult(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<string | null> {
  return await connection.call<string | null>(["GET", boardKeys(prefix).shared(name)]);
}

/** Removes the value shared as `name` (its leader is going away): one DEL. */
export async function removeSharedResult(
  connection: RedisConnection,
  name: string,
  prefix?: string,
): Promise<void> {
  await connection.call(["DEL", boardKeys(prefix).shared(name)]);
}

/**
 * Notes `member` of `set` as asked now (wall clock, shared by the
 * replicas), keeping the `max` asked last: one pipeline of ZADD and
 * ZREMRANGEBYRANK.
 */
export async function noteAsked(
  connection: RedisConnection,
  set: string,
  member: string,
  max: number,
  prefix?: string,
): Promise<void> {
  const key = boardKeys(prefix).asked(set);
  await connection.pipeline([
    ["ZADD", key, String(Date.now()), member],
    ["ZREMRANGEBYRANK", key, "0", String(-max - 1)],
  ]);
}

/** The members of `set` asked within `withinMs`, newest first: one ZRANGE. */
export async function listAsked(
  connection: RedisConnection,
  set: string,
  withinMs: number,
  prefix?: string,
): Promise<string[]> {
  return await connection.call<string[]>([
    "ZRANGE",
    boardKeys(prefix).asked(set),
    "+inf",
    String(Date.now() - withinMs),
    "BYSCORE",
    "REV",
  ]);
}
