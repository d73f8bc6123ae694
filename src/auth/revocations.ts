/**
 * Sign-out and sign-out-everywhere for the board: the session revocations of
 * its source (in Redis, shared by every replica), read at most every
 * {@link REVOCATION_CACHE_MS}; or, for a source with no shared store, a
 * table in this board's memory. A board that finds the store's table lost
 * (Redis restarted empty) refuses every session signed in before then.
 *
 * @module
 */

import {
  isRevoked,
  RevocationTable,
  type SessionIdentity,
  type SessionRevocations,
  type SignedOutSession,
} from "../source/session_revocations.ts";
import type { TaskSource } from "../source/types.ts";
import type { Session } from "./session.ts";
import { userName } from "./user.ts";

/** How long a board trusts its copy of the revocations: another replica's revocation takes at most this long. */
export const REVOCATION_CACHE_MS = 5000;

/** What a session is checked against the revocations by: its user's name, when it signed in, its nonce. */
export function identityOf(session: Session): SessionIdentity {
  return { user: userName(session.user), iat: session.iat, nonce: session.nonce };
}

/** The board's session revocations. */
export interface SessionRevoker {
  /** Whether a session has been revoked (its user's, everyone's) or signed out. */
  isRevoked(session: SessionIdentity): Promise<boolean>;
  /** Revokes `user`'s sessions (everyone's when null) signed in until now; returns now. */
  revoke(user: string | null): Promise<number>;
  /** Signs one session out until its cookie expires. */
  signOut(session: SignedOutSession): Promise<void>;
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
 * assert.ok(await sessions.isRevoked({ user: "ada", iat: 1_000, nonce: "n1" }));
 * await source.close();
 * ```
 */
export function createSessionRevoker(source: TaskSource, now: () => number): SessionRevoker {
  if (!source.getSessionRevocations || !source.revokeSessions) {
    const table = new RevocationTable();
    return {
      isRevoked: (session) => Promise.resolve(isRevoked(table.read(), session, now())),
      revoke(user) {
        const at = now();
        table.revoke(user, at);
        return Promise.resolve(at);
      },
      signOut(session) {
        table.signOut(session, now());
        return Promise.resolve();
      },
    };
  }
  const read = source.getSessionRevocations.bind(source);
  const write = source.revokeSessions.bind(source);
  // A store that keeps no single sessions: the user's sessions until this one end (stricter).
  const writeSignOut = source.signOutSession?.bind(source) ??
    ((session: SignedOutSession) => write(session.user, session.iat + 1));
  const keep = source.keepSessionRevocations?.bind(source);
  let cached: { revocations: SessionRevocations; readAt: number } | null = null;
  let reading: Promise<SessionRevocations> | null = null;
  /** The id of the table this board has seen; null before it has seen one. */
  let seenTable: string | null = null;

  /**
   * The revocations, once the table is known to be the one this board saw:
   * a table gone, or made again since, lost the store's data (revoked and
   * signed-out sessions with it), so every session signed in before now is
   * refused; none at all is made (the first board to look makes it).
   */
  async function kept(revocations: SessionRevocations): Promise<SessionRevocations> {
    const { table } = revocations;
    if (!keep || table === undefined) return revocations;
    if (table !== null && (seenTable === null || table === seenTable)) {
      seenTable = table;
      return revocations;
    }
    const lostAt = seenTable === null ? null : now();
    seenTable = await keep(lostAt);
    return lostAt === null
      ? revocations
      : { ...revocations, everyone: Math.max(revocations.everyone, lostAt) };
  }

  function reread(): Promise<SessionRevocations> {
    const readAt = now();
    const pending: Promise<SessionRevocations> = read().then(kept).then((revocations) => {
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

  /** This board sees its own revocation at once; the others within the cache's time. */
  function forgetCopy(): void {
    cached = null;
    reading = null;
  }

  return {
    async isRevoked(session) {
      return isRevoked(await current(), session, now());
    },
    async revoke(user) {
      const at = now();
      await write(user, at);
      forgetCopy();
      return at;
    },
    async signOut(session) {
      await writeSignOut(session, now());
      forgetCopy();
    },
  };
}
