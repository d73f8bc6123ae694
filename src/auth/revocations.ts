/**
 * Sign-out and sign-out-everywhere for the board: the session revocations of
 * its `BoardStore` (in Redis, shared by every replica; or in memory), read at
 * most every {@link REVOCATION_CACHE_MS}. A board that finds the store's
 * table lost (Redis restarted empty) refuses every session signed in before
 * then.
 *
 * @module
 */

import {
  isRevoked,
  type SessionIdentity,
  type SessionRevocations,
  type SignedOutSession,
} from "../store/session_revocations.ts";
import type { SessionStore } from "../store/sessions.ts";
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
 * The revocations kept in `store`, on the clock `now`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { createSessionRevoker } from "./revocations.ts";
 * import { createMemoryBoardStore } from "../store/memory/mod.ts";
 *
 * const sessions = createSessionRevoker(createMemoryBoardStore(), () => 2_000);
 * await sessions.revoke("ada");
 * assert.ok(await sessions.isRevoked({ user: "ada", iat: 1_000, nonce: "n1" }));
 * ```
 */
export function createSessionRevoker(store: SessionStore, now: () => number): SessionRevoker {
  const read = () => store.getSessionRevocations();
  const write = (user: string | null, at: number) => store.revokeSessions(user, at);
  const writeSignOut = (session: SignedOutSession, at: number) => store.signOutSession(session, at);
  const keep = (lostAt: number | null) => store.keepSessionRevocations(lostAt);
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
    if (table === undefined) return revocations;
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
