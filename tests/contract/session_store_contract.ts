/**
 * The BoardStore contract for session revocations: a user's and everyone's
 * revocation and one session signed out are read back by every board on
 * the store, and the table keeps one id while it is not lost.
 */

import assert from "node:assert/strict";
import { isRevoked } from "../../src/store/session_revocations.ts";
import type { StoreSeed } from "./board_store_contract.ts";

const session = (user: string, iat: number, nonce = `${user}-${iat}`) => ({ user, iat, nonce });

/** Registers the session store contract for the store `seed` makes. */
export function sessionStoreContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: revocations of a user, of everyone and of one session are read back`, async () => {
    const { store, close } = await seed();
    try {
      const now = 10_000;
      await store.revokeSessions("ada", 1_000);
      await store.signOutSession({ nonce: "g1", user: "grace", iat: 2_000, exp: 20_000 }, now);
      let revocations = await store.getSessionRevocations();
      assert.equal(isRevoked(revocations, session("ada", 999), now), true);
      assert.equal(isRevoked(revocations, session("ada", 1_000), now), false);
      assert.equal(isRevoked(revocations, session("grace", 2_000, "g1"), now), true);
      assert.equal(isRevoked(revocations, session("grace", 2_000, "g2"), now), false);
      await store.revokeSessions(null, 3_000);
      revocations = await store.getSessionRevocations();
      assert.equal(isRevoked(revocations, session("linus", 2_999), now), true);
      assert.equal(isRevoked(revocations, session("linus", 3_000), now), false);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the revocation table keeps its id while it is not lost`, async () => {
    const { store, close } = await seed();
    try {
      const id = await store.keepSessionRevocations(null);
      assert.ok(id.length > 0);
      assert.equal(await store.keepSessionRevocations(null), id);
    } finally {
      await close();
    }
  });
}
