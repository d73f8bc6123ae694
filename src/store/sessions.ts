/**
 * The sessions' part of the {@link BoardStore}: the revocations every board
 * on the store checks a session cookie against (see
 * `session_revocations.ts` for the table and its bounds).
 *
 * @module
 */

import type { SessionRevocations, SignedOutSession } from "./session_revocations.ts";

/** The session revocations every board on the store shares. */
export interface SessionStore {
  /** The revocations as they stand. */
  getSessionRevocations(): Promise<SessionRevocations>;
  /** Revokes `user`'s sessions (everyone's when null) signed in before `at` (ms, now). */
  revokeSessions(user: string | null, at: number): Promise<void>;
  /** Signs one session out until its cookie expires (sign out). */
  signOutSession(session: SignedOutSession, now: number): Promise<void>;
  /**
   * Gives the revocation table a random id when the store holds none, and
   * when it was lost (a board saw it before and finds it gone or made
   * again, at `lostAt`, ms) refuses every session signed in before then;
   * returns the table's id. A store whose table cannot be lost without the
   * board answers one id always (and leaves `table` out of
   * {@link SessionStore.getSessionRevocations}).
   */
  keepSessionRevocations(lostAt: number | null): Promise<string>;
}
