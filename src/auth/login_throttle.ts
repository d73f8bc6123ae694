/**
 * Login throttling: failed sign-ins are counted per username and per client
 * address; past the free attempts, the key waits a delay that doubles with
 * each further failure, up to a cap. An attempt is counted as failed when it
 * is let through, before its password is checked, so attempts in flight at
 * once see each other (a parallel burst checks no more passwords than the
 * free attempts); a success gives it back. Refused attempts do not count (a
 * flood does not lengthen the wait of the user it targets). An IPv6 client
 * counts by its /64. The table is bounded: past `maxEntries` keys, the least
 * recently failed that waits for nothing is forgotten (a key keeps its lock
 * until it ends, unless every key is locked).
 *
 * @module
 */

import type { ResolvedLoginThrottle } from "../options.ts";
import { addressBlock } from "./client_address.ts";

/** Whom a sign-in attempt counts against: the username, and the client address (its /64 for IPv6) when known. */
export interface AttemptKeys {
  username: string;
  address: string | null;
}

/** A login throttle. */
export interface LoginThrottle {
  /**
   * Lets an attempt of `keys` through, counting it against both keys as a
   * failure until {@link succeed} says otherwise, and returns 0; or, while
   * either key waits, counts nothing and returns how long (ms) it must wait.
   */
  reserve(keys: AttemptKeys): number;
  /**
   * The attempt let through signed in: the username starts over, and the
   * address gets that attempt back (only that one: one account proves no
   * other).
   */
  succeed(keys: AttemptKeys): void;
}

interface Failures {
  count: number;
  /** Until when (ms) attempts are refused. */
  lockedUntil: number;
  /** When the key is forgotten (ms): `maxDelay` after its last failure or lock. */
  forgetAt: number;
}

/** Usernames are compared as people type them: case and surrounding spaces aside. */
function usernameKey(username: string): string {
  return `u:${username.trim().toLowerCase().slice(0, 256)}`;
}

/**
 * The throttle of one board, on the clock `now`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createLoginThrottle } from "./login_throttle.ts";
 *
 * let now = 0;
 * const limits = { attempts: 1, addressAttempts: 20, delayMs: 1000, maxDelayMs: 60_000, maxEntries: 100 };
 * const throttle = createLoginThrottle(limits, () => now);
 * const keys = { username: "ada", address: "192.0.2.1" };
 * assert.equal(throttle.reserve(keys), 0, "let through, counted as failed");
 * assert.equal(throttle.reserve(keys), 1000, "the next waits, even before the first is checked");
 * now += 1000;
 * assert.equal(throttle.reserve(keys), 0);
 * throttle.succeed(keys);
 * assert.equal(throttle.reserve(keys), 0, "a success starts the username over");
 * ```
 */
export function createLoginThrottle(
  limits: ResolvedLoginThrottle,
  now: () => number,
): LoginThrottle {
  const table = new Map<string, Failures>();

  function current(key: string): Failures | undefined {
    const entry = table.get(key);
    if (entry && entry.forgetAt <= now()) {
      table.delete(key);
      return undefined;
    }
    return entry;
  }

  function keysOf({ username, address }: AttemptKeys): [string, number][] {
    const keys: [string, number][] = [[usernameKey(username), limits.attempts]];
    if (address !== null) keys.push([`a:${addressBlock(address)}`, limits.addressAttempts]);
    return keys;
  }

  function failOne(key: string, free: number): void {
    const at = now();
    const count = (current(key)?.count ?? 0) + 1;
    const over = count - free;
    const lockedUntil = over < 0
      ? 0
      : at + Math.min(limits.maxDelayMs, limits.delayMs * 2 ** Math.min(over, 40));
    // Re-inserted: the map's order is the order of last failure, oldest first.
    table.delete(key);
    table.set(key, { count, lockedUntil, forgetAt: Math.max(at, lockedUntil) + limits.maxDelayMs });
    if (table.size > limits.maxEntries) makeRoom(key, at);
  }

  /**
   * Forgets one key but `kept` (the one just counted): the least recently
   * failed that waits for nothing, so that a flood of junk usernames cannot
   * push a real lockout out; only when every key waits, the one whose wait
   * ends first.
   */
  function makeRoom(kept: string, at: number): void {
    let soonest: string | null = null;
    let soonestEnd = Infinity;
    for (const [key, entry] of table) {
      if (key === kept) continue;
      if (entry.lockedUntil <= at) {
        table.delete(key);
        return;
      }
      if (entry.lockedUntil < soonestEnd) [soonest, soonestEnd] = [key, entry.lockedUntil];
    }
    if (soonest !== null) table.delete(soonest);
  }

  /** Takes back one failure of `key`, and the lock it earned (a lock that more failures earned stays). */
  function giveBack(key: string, free: number): void {
    const entry = current(key);
    if (!entry) return;
    entry.count -= 1;
    if (entry.count === 0) table.delete(key);
    else if (entry.count < free) entry.lockedUntil = 0;
  }

  return {
    reserve(keys) {
      const at = now();
      const counted = keysOf(keys);
      const wait = Math.max(0, ...counted.map(([key]) => (current(key)?.lockedUntil ?? 0) - at));
      // Counted before the password is checked, in the same turn as the wait: nothing runs between.
      if (wait === 0) { for (const [key, free] of counted) failOne(key, free); }
      return wait;
    },
    succeed(keys) {
      const [[username], address] = keysOf(keys);
      table.delete(username);
      if (address) giveBack(...address);
    },
  };
}
