/**
 * The scan slots in Redis: one sorted set, `<root>:board:scans`, shared by
 * every board replica on the keyspace. Each member is a holder,
 * `<kind>:<id>:<user>` (kind `m` a user allowed a mutation, `r` a reader,
 * `n` nobody named), scored by when it expires (ms, on the replica's clock:
 * a skew of seconds against the default 30 s is harmless). A take is one
 * script: it drops the expired holders, applies the rules of
 * `../scan_slot_rules.ts` to those left, and adds the claim. The set never holds
 * more than `max` live holders; the key itself expires with its last
 * renewal, so nothing is left once every board is gone.
 *
 * @module
 */

import { OutcomeUnknownError, StoreUnavailableError } from "../../errors.ts";
import type { ScanSlotAnswer, ScanSlotClaim } from "../scan_slot_rules.ts";
import { scanSlotsKey } from "../../source/wire/keys.ts";
import type { RedisConnection } from "../../source/redis/client.ts";
import type { LuaScript } from "../../source/redis/scripts.ts";

/**
 * KEYS[1] the set; ARGV[1] now (ms), ARGV[2] the claim's expiry (ms),
 * ARGV[3] its member, ARGV[4] max, ARGV[5] the user (empty for nobody),
 * ARGV[6] its kind, ARGV[7] the key's time to live (ms). Answers
 * `{ 'ok', 0 }`, or the refusal and its count (`full`, `user`, `readers`).
 */
export const TAKE_SCAN_SLOT: LuaScript = {
  name: "take-scan-slot",
  writes: true,
  source: `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local members = redis.call('ZRANGE', KEYS[1], 0, -1)
local max = tonumber(ARGV[4])
if #members >= max then return { 'full', #members } end
local user, kind = ARGV[5], ARGV[6]
if kind ~= 'n' then
  local held, readers = 0, 0
  for _, member in ipairs(members) do
    local other = string.sub(member, 1, 1)
    local idEnd = string.find(member, ':', 3, true)
    if other ~= 'n' and string.sub(member, idEnd + 1) == user then held = held + 1 end
    if other == 'r' then readers = readers + 1 end
  end
  if held >= math.max(1, math.floor(max / 2)) then return { 'user', held } end
  if kind == 'r' and readers >= max - 1 then return { 'readers', readers } end
end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return { 'ok', 0 }
`,
};

/** The member of a claim: its kind, its id, its user. */
function memberOf(claim: ScanSlotClaim): string {
  const kind = claim.user === null ? "n" : claim.mutator ? "m" : "r";
  return `${kind}:${claim.id}:${claim.user ?? ""}`;
}

/**
 * A claim Redis did not confirm is the board's own write, not the search or
 * change asked for, which has not begun: the store is unavailable (503), not
 * the outcome unknown. Had it run, the slot lapses with its time to live.
 */
async function claimed<T>(claim: Promise<T>): Promise<T> {
  try {
    return await claim;
  } catch (error) {
    if (!(error instanceof OutcomeUnknownError)) throw error;
    const cause = error.cause instanceof Error ? error.cause.message : "Redis did not answer";
    throw new StoreUnavailableError(`${cause} (taking a scan slot)`, { cause: error });
  }
}

/** Takes a slot for `claim` at `now` (ms) unless the rules refuse it: one script. */
export async function takeScanSlot(
  connection: RedisConnection,
  claim: ScanSlotClaim,
  now: number,
  prefix?: string,
): Promise<ScanSlotAnswer> {
  const [answer, count] = await claimed(connection.call<[string, number]>({
    script: TAKE_SCAN_SLOT,
    keys: [scanSlotsKey(prefix)],
    args: [
      now,
      now + claim.ttlMs,
      memberOf(claim),
      claim.max,
      claim.user ?? "",
      memberOf(claim)[0],
      claim.ttlMs,
    ],
  }));
  if (answer === "full") return { reason: "full", taken: Number(count) };
  if (answer === "user") return { reason: "user", held: Number(count) };
  if (answer === "readers") return { reason: "readers", readers: Number(count) };
  return null;
}

/** Moves a held slot's expiry to `claim.ttlMs` after `now`; one that expired stays gone. */
export async function renewScanSlot(
  connection: RedisConnection,
  claim: ScanSlotClaim,
  now: number,
  prefix?: string,
): Promise<void> {
  const key = scanSlotsKey(prefix);
  await connection.pipeline([
    ["ZADD", key, "XX", String(now + claim.ttlMs), memberOf(claim)],
    ["PEXPIRE", key, String(claim.ttlMs)],
  ]);
}

/** Gives a slot back. */
export async function releaseScanSlot(
  connection: RedisConnection,
  claim: ScanSlotClaim,
  prefix?: string,
): Promise<void> {
  await connection.call(["ZREM", scanSlotsKey(prefix), memberOf(claim)]);
}
