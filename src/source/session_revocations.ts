/**
 * Sign-out-everywhere without server-side sessions: the store keeps, per
 * user and for everyone, when sessions were last revoked, and a session
 * cookie signed in before that time is refused.
 *
 * The table is bounded: past {@link MAX_REVOKED_USERS} users, the oldest
 * user's revocation is folded into everyone's (every session signed in
 * before it ends too). That is stricter than what was asked, never looser.
 *
 * @module
 */

/** When sessions were revoked (ms; 0 for never). */
export interface SessionRevocations {
  /** Every user's sessions signed in before this time are refused. */
  everyone: number;
  /** Per user name: that user's sessions signed in before it are refused. */
  users: ReadonlyMap<string, number>;
}

/** Most users a revocation table keeps apart from everyone's. */
export const MAX_REVOKED_USERS = 1000;

/** Whether a session of `user` signed in at `iat` is revoked. */
export function isRevoked(revocations: SessionRevocations, user: string, iat: number): boolean {
  return iat < Math.max(revocations.everyone, revocations.users.get(user) ?? 0);
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
 * assert.ok(isRevoked(table.read(), "ada", 900));
 * assert.ok(!isRevoked(table.read(), "grace", 900));
 * ```
 */
export class RevocationTable {
  #everyone = 0;
  readonly #users = new Map<string, number>();

  /** A copy of the table. */
  read(): SessionRevocations {
    return { everyone: this.#everyone, users: new Map(this.#users) };
  }

  /** Revokes `user`'s sessions (everyone's when null) signed in before `at`. */
  revoke(user: string | null, at: number): void {
    if (user === null) {
      this.#everyone = Math.max(this.#everyone, at);
      // Covered by everyone's now.
      for (const [name, revoked] of this.#users) {
        if (revoked <= this.#everyone) this.#users.delete(name);
      }
      return;
    }
    this.#users.set(user, Math.max(this.#users.get(user) ?? 0, at));
    if (this.#users.size <= MAX_REVOKED_USERS) return;
    const [oldest, revoked] = [...this.#users].reduce((a, b) => (b[1] < a[1] ? b : a));
    this.#users.delete(oldest);
    this.#everyone = Math.max(this.#everyone, revoked);
  }
}
