/**
 * Sign-out without server-side sessions: the store keeps, per user and for
 * everyone, when sessions were last revoked (sign out everywhere), and the
 * single sessions signed out, by their nonce, until their cookie expires
 * (sign out). A session cookie signed in before its user's or everyone's
 * revocation, or whose nonce is signed out, is refused.
 *
 * The table is bounded: past {@link MAX_REVOKED_USERS} users, the oldest
 * user's revocation is folded into everyone's (every session signed in
 * before it ends too); past {@link MAX_SIGNED_OUT_SESSIONS} signed-out
 * sessions, the one signed in first is folded into its user's revocation
 * (that user's sessions signed in until then end too). Both are stricter
 * than what was asked, never looser. A signed-out session is forgotten once
 * its cookie has expired, and when a revocation covers it.
 *
 * @module
 */

/** When sessions were revoked (ms; 0 for never). */
export interface SessionRevocations {
  /** Every user's sessions signed in before this time are refused. */
  everyone: number;
  /** Per user name: that user's sessions signed in before it are refused. */
  users: ReadonlyMap<string, number>;
  /** Per signed-out session's nonce: until when (ms) it is refused; Infinity for a cookie with no expiry. */
  sessions: ReadonlyMap<string, number>;
  /**
   * The store's table's id, random, given when it was made; null when the
   * store holds none: a board that saw another id, or finds it gone, knows
   * the store lost its data (a Redis restarted empty). Absent from a table
   * that cannot be lost without the board (in its memory).
   */
  table?: string | null;
}

/** A session signed out: its nonce, who signed in and when, and when its cookie expires. */
export interface SignedOutSession {
  /** The random nonce signed into its cookie. */
  nonce: string;
  /** Its user's name. */
  user: string;
  /** When it was signed in (ms). */
  iat: number;
  /** When its cookie expires (ms); null when it never does. */
  exp: number | null;
}

/** What a session cookie is checked by: its user, when it was signed in, its nonce. */
export interface SessionIdentity {
  /** Its user's name. */
  user: string;
  /** When it was signed in (ms). */
  iat: number;
  /** The random nonce signed into its cookie. */
  nonce: string;
}

/** Most users a revocation table keeps apart from everyone's. */
export const MAX_REVOKED_USERS = 1000;

/** Most signed-out sessions a revocation table keeps apart from their users' revocations. */
export const MAX_SIGNED_OUT_SESSIONS = 1000;

/** Whether a session is revoked, at `now` (ms). */
export function isRevoked(
  revocations: SessionRevocations,
  session: SessionIdentity,
  now: number,
): boolean {
  const revoked = Math.max(revocations.everyone, revocations.users.get(session.user) ?? 0);
  return session.iat < revoked || (revocations.sessions.get(session.nonce) ?? 0) > now;
}

/**
 * The table in memory: for a source with no shared store (the memory source,
 * a taskora App on its memory adapter), one per board.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRevoked, RevocationTable } from "./session_revocations.ts";
 *
 * const table = new RevocationTable();
 * table.revoke("ada", 1_000);
 * assert.ok(isRevoked(table.read(), { user: "ada", iat: 900, nonce: "n1" }, 1_000));
 * assert.ok(!isRevoked(table.read(), { user: "grace", iat: 900, nonce: "n2" }, 1_000));
 * table.signOut({ nonce: "n2", user: "grace", iat: 900, exp: 5_000 }, 1_000);
 * assert.ok(isRevoked(table.read(), { user: "grace", iat: 900, nonce: "n2" }, 1_000));
 * ```
 */
export class RevocationTable {
  #everyone = 0;
  readonly #users = new Map<string, number>();
  readonly #sessions = new Map<string, SignedOutSession>();

  /** A copy of the table. */
  read(): SessionRevocations {
    const sessions = new Map<string, number>();
    for (const [nonce, session] of this.#sessions) sessions.set(nonce, session.exp ?? Infinity);
    return { everyone: this.#everyone, users: new Map(this.#users), sessions };
  }

  /** Revokes `user`'s sessions (everyone's when null) signed in before `at` (now). */
  revoke(user: string | null, at: number): void {
    if (user === null) {
      this.#everyone = Math.max(this.#everyone, at);
      // Covered by everyone's now.
      for (const [name, revoked] of this.#users) {
        if (revoked <= this.#everyone) this.#users.delete(name);
      }
    } else {
      this.#users.set(user, Math.max(this.#users.get(user) ?? 0, at));
      if (this.#users.size > MAX_REVOKED_USERS) {
        const [oldest, revoked] = [...this.#users].reduce((a, b) => (b[1] < a[1] ? b : a));
        this.#users.delete(oldest);
        this.#everyone = Math.max(this.#everyone, revoked);
      }
    }
    this.#forget(at);
  }

  /** Signs out one session until its cookie expires; forgets those expired by `now`. */
  signOut(session: SignedOutSession, now: number): void {
    this.#sessions.set(session.nonce, session);
    this.#forget(now);
    if (this.#sessions.size <= MAX_SIGNED_OUT_SESSIONS) return;
    const first = [...this.#sessions.values()].reduce((a, b) => (b.iat < a.iat ? b : a));
    this.#sessions.delete(first.nonce);
    // Its user's sessions signed in until it (it included) end.
    this.revoke(first.user, first.iat + 1);
  }

  /** Forgets the signed-out sessions a revocation covers, and those expired by `now`. */
  #forget(now: number): void {
    for (const [nonce, session] of this.#sessions) {
      const revoked = Math.max(this.#everyone, this.#users.get(session.user) ?? 0);
      const expired = session.exp !== null && session.exp <= now;
      if (expired || session.iat < revoked) this.#sessions.delete(nonce);
    }
  }
}
