/**
 * Sign-out-everywhere's table and the board's cache of it: bounded, and
 * never more than five seconds behind the store.
 */

import assert from "node:assert/strict";
import { createSessionRevoker, REVOCATION_CACHE_MS } from "../../src/auth/revocations.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import {
  isRevoked,
  MAX_REVOKED_USERS,
  MAX_SIGNED_OUT_SESSIONS,
  RevocationTable,
  type SessionRevocations,
} from "../../src/store/session_revocations.ts";

/** A session of `user` signed in at `iat`, its nonce `n-<iat>`. */
const session = (user: string, iat: number) => ({ user, iat, nonce: `n-${iat}` });

Deno.test("isRevoked() refuses sessions signed in before the user's or everyone's revocation", () => {
  const revocations = { everyone: 500, users: new Map([["ada", 1000]]), sessions: new Map() };
  assert.equal(isRevoked(revocations, session("ada", 999), 2000), true);
  assert.equal(isRevoked(revocations, session("ada", 1000), 2000), false, "signed in at it");
  assert.equal(isRevoked(revocations, session("grace", 499), 2000), true);
  assert.equal(isRevoked(revocations, session("grace", 500), 2000), false);
});

Deno.test("isRevoked() refuses a signed-out session until its cookie expires", () => {
  const revocations = {
    everyone: 0,
    users: new Map(),
    sessions: new Map([["n-600", 5000], ["n-700", Infinity]]),
  };
  assert.equal(isRevoked(revocations, session("ada", 600), 4999), true);
  assert.equal(isRevoked(revocations, session("ada", 600), 5000), false, "expired anyway");
  assert.equal(isRevoked(revocations, session("ada", 700), 1e15), true, "a cookie with no expiry");
  assert.equal(isRevoked(revocations, session("ada", 800), 1000), false, "another session");
});

Deno.test("RevocationTable keeps at most MAX_SIGNED_OUT_SESSIONS, folding the first signed in into its user's", () => {
  const table = new RevocationTable();
  for (let i = 1; i <= MAX_SIGNED_OUT_SESSIONS; i++) {
    table.signOut({ ...session(`user${i % 7}`, 1000 + i), exp: null }, 3000);
  }
  assert.equal(table.read().sessions.size, MAX_SIGNED_OUT_SESSIONS);
  table.signOut({ ...session("late", 2500), exp: 9000 }, 3000);
  const { users, sessions } = table.read();
  assert.equal(sessions.size, MAX_SIGNED_OUT_SESSIONS);
  assert.equal(sessions.has("n-1001"), false);
  assert.equal(users.get("user1"), 1002, "user1's sessions until the folded one end: stricter");
  assert.equal(isRevoked(table.read(), session("user1", 1001), 3000), true);
  assert.equal(isRevoked(table.read(), session("user1", 1008), 3000), true, "signed out itself");
  const later = { user: "user1", iat: 1500, nonce: "never-signed-out" };
  assert.equal(isRevoked(table.read(), later, 3000), false, "signed in after the folded one");
});

Deno.test("RevocationTable forgets a signed-out session once expired or covered by a revocation", () => {
  const table = new RevocationTable();
  table.signOut({ ...session("ada", 1000), exp: 4000 }, 2000);
  table.signOut({ ...session("grace", 1100), exp: null }, 2000);
  table.signOut({ ...session("grace", 1900), exp: null }, 2000);
  assert.equal(table.read().sessions.size, 3);
  table.revoke("grace", 1500);
  assert.deepEqual([...table.read().sessions.keys()], ["n-1000", "n-1900"], "grace's older one");
  table.signOut({ ...session("bob", 3000), exp: null }, 4000);
  assert.deepEqual([...table.read().sessions.keys()], ["n-1900", "n-3000"], "ada's expired");
});

Deno.test("RevocationTable keeps at most MAX_REVOKED_USERS users, folding the oldest into everyone's", () => {
  const table = new RevocationTable();
  for (let i = 1; i <= MAX_REVOKED_USERS; i++) table.revoke(`user${i}`, 1000 + i);
  assert.equal(table.read().users.size, MAX_REVOKED_USERS);
  assert.equal(table.read().everyone, 0);
  table.revoke("one-too-many", 5000);
  const { everyone, users } = table.read();
  assert.equal(users.size, MAX_REVOKED_USERS);
  assert.equal(users.has("user1"), false);
  assert.equal(everyone, 1001, "user1's revocation now holds for everyone: stricter, never looser");
  assert.equal(isRevoked(table.read(), session("user1", 1000), 6000), true);
});

Deno.test("RevocationTable: everyone's revocation drops the users it covers; times never go back", () => {
  const table = new RevocationTable();
  table.revoke("ada", 1000);
  table.revoke("grace", 3000);
  table.revoke(null, 2000);
  table.revoke("grace", 2500);
  table.revoke(null, 1500);
  assert.deepEqual(table.read(), {
    everyone: 2000,
    users: new Map([["grace", 3000]]),
    sessions: new Map(),
  });
});

/** A memory store that counts its revocation reads, each waiting for `gate`. */
function countingStore() {
  const store = Object.assign(createMemoryBoardStore(), {
    reads: 0,
    gate: null as Promise<void> | null,
  });
  const read = store.getSessionRevocations.bind(store);
  store.getSessionRevocations = async (): Promise<SessionRevocations> => {
    store.reads++;
    const snapshot = await read();
    await store.gate;
    return snapshot;
  };
  return store;
}

Deno.test("the board reads the store's revocations at most every 5 s, and its own at once", async () => {
  let now = 10_000;
  const store = countingStore();
  const here = createSessionRevoker(store, () => now);
  const there = createSessionRevoker(store, () => now);
  const ada = session("ada", 9_000);
  assert.equal(await there.isRevoked(ada), false);
  assert.equal(await there.isRevoked(ada), false);
  assert.equal(store.reads, 1, "one read for both checks");
  now += 1000;
  assert.equal(await here.revoke("ada"), 11_000);
  assert.equal(await here.isRevoked(ada), true, "the revoking board at once");
  now += REVOCATION_CACHE_MS - 1001;
  assert.equal(await there.isRevoked(ada), false, "the other within its 5 s");
  now += 1;
  assert.equal(await there.isRevoked(ada), true, "and no later");
});

Deno.test("a read the board's own revocation overtook is not kept", async () => {
  const now = 10_000;
  const store = countingStore();
  const board = createSessionRevoker(store, () => now);
  let open = () => {};
  store.gate = new Promise((resolve) => open = resolve);
  const before = board.isRevoked(session("ada", 9_000));
  store.gate = null;
  await board.revoke("ada");
  open();
  assert.equal(await before, false, "the request that started before the revocation");
  assert.equal(await board.isRevoked(session("ada", 9_000)), true);
});

Deno.test("each memory store keeps its own revocations", async () => {
  const one = createSessionRevoker(createMemoryBoardStore(), () => 2000);
  const other = createSessionRevoker(createMemoryBoardStore(), () => 2000);
  await one.revoke(null);
  assert.equal(await one.isRevoked(session("ada", 1000)), true);
  assert.equal(await other.isRevoked(session("ada", 1000)), false, "never module-global");
});
