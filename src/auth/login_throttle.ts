/**
 * Login throttling: failed sign-ins are counted per username and per client
 * address; past the free attempts, the key waits a delay that doubles with
 * each further failure, up to a cap. Refused attempts do not count (a
 * flood does not lengthen the wait of the user it targets). The table is
 * bounded: past `maxEntries` keys, the least recently failed is forgotten.
 *
 * @module
 */

import type { ResolvedLoginThrottle } from "../options.ts";

/** Whom a sign-in attempt counts against: the username, and the client address when known. */
export interface AttemptKeys {
  username: string;
  address: string | null;
}

/** A login throttle. */
export interface LoginThrottle {
  /** How long (ms) an attempt of `keys` must wait now; 0 when it may be tried. */
  wait(keys: AttemptKeys): number;
  /** Counts a failed sign-in against both keys. */
  fail(keys: AttemptKeys): void;
  /** A successful sign-in: the username starts over (the address does not: one account proves no other). */
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
 * throttle.fail(keys);
 * assert.equal(throttle.wait(keys), 1000);
 * now += 1000;
 * assert.equal(throttle.wait(keys), 0);
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
    if (address !== null) keys.push([`a:${address}`, limits.addressAttempts]);
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
    if (table.size > limits.maxEntries) table.delete(table.keys().next().value!);
  }

  return {
    wait(keys) {
      const at = now();
      return Math.max(0, ...keysOf(keys).map(([key]) => (current(key)?.lockedUntil ?? 0) - at));
    },
    fail(keys) {
      for (const [key, free] of keysOf(keys)) failOne(key, free);
    },
    succeed({ username }) {
      table.delete(usernameKey(username));
    },
  };
}
