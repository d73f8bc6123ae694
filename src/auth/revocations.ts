/**
 * Sign-out-everywhere for the board: the session revocations of its source
 * (in Redis, shared by every replica), read at most every
 * {@link REVOCATION_CACHE_MS}; or, for a source with no shared store, a
 * table in this board's memory.
 *
 * @module
 */

import {
  isRevoked,
  RevocationTable,
  type SessionRevocations,
} from "../source/session_revocations.ts";
import type { TaskSource } from "../source/types.ts";

/** How long a board trusts its copy of the revocations: another replica's revocation takes at most this long. */
export const REVOCATION_CACHE_MS = 5000;

/** The board's session revocations. */
export interface SessionRevoker {
  /** Whether a session of `user` signed in at `iat` (ms) has been revoked. */
  isRevoked(user: string, iat: number): Promise<boolean>;
  /** Revokes `user`'s sessions (everyone's when null) signed in until now; returns now. */
  revoke(user: string | null): Promise<number>;
}

/**
 * The revocations of `source`, on the clock `now`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSessionRevoker } from "./revocations.ts";
 * import { createMemorySource } from "../source/memory/mod.ts";
 *
 * const source = createMemorySource();
 * const sessions = createSessionRevoker(source, () => 2_000);
 * await sessions.revoke("ada");
 * assert.ok(await sessions.isRevoked("ada", 1_000));
 * await source.close();
 * ```
 */
export function createSessionRevoker(source: TaskSource, now: () => number): SessionRevoker {
  if (!source.getSessionRevocations || !source.revokeSessions) {
    const table = new RevocationTable();
    return {
      isRevoked: (user, iat) => Promise.resolve(isRevoked(table.read(), user, iat)),
      revoke(user) {
        const at = now();
        table.revoke(user, at);
        return Promise.resolve(at);
      },
    };
  }
  const read = source.getSessionRevocations.bind(source);
  const write = source.revokeSessions.bind(source);
  let cached: { revocations: SessionRevocations; readAt: number } | null = null;
  let reading: Promise<SessionRevocations> | null = null;

  function reread(): Promise<SessionRevocations> {
    const readAt = now();
    const pending: Promise<SessionRevocations> = read().then((revocations) => {
      // A read that a revocation overtook is not kept: it may predate it.
      if (reading === pending) cached = { revocations, readAt };
      return revocations;
    }).finally(() => {
      if (reading === pending) reading = null;
    });
    return reading = pending;
  }

  async function current(): Promise<SessionRevocations> {
    if (cached && now() - cached.readAt < REVOCATION_CACHE_MS) return cached.revocations;
    return await (reading ?? reread());
  }

  return {
    async isRevoked(user, iat) {
      return isRevoked(await current(), user, iat);
    },
    async revoke(user) {
      const at = now();
      await write(user, at);
      // This board sees its own revocation at once; the others within the cache's time.
      cached = null;
      reading = null;
      return at;
    },
  };
}
