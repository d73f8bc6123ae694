/**
 * Sign-out-everywhere's table and the board's cache of it: bounded, and
 * never more than five seconds behind the store.
 */

import assert from "node:assert/strict";
import { createSessionRevoker, REVOCATION_CACHE_MS } from "../../src/auth/revocations.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import {
  isRevoked,
  MAX_REVOKED_USERS,
  RevocationTable,
  type SessionRevocations,
} from "../../src/source/session_revocations.ts";
import type { TaskSource } from "../../src/source/types.ts";

Deno.test("isRevoked() refuses sessions signed in before the user's or everyone's revocation", () => {
  const revocations = { everyone: 500, users: new Map([["ada", 1000]]) };
  assert.equal(isRevoked(revocations, "ada", 999), true);
  assert.equal(isRevoked(revocations, "ada", 1000), false, "signed in at the revocation");
  assert.equal(isRevoked(revocations, "grace", 499), true);
  assert.equal(isRevoked(revocations, "grace", 500), false);
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
  assert.equal(isRevoked(table.read(), "user1", 1000), true);
});

Deno.test("RevocationTable: everyone's revocation drops the users it covers; times never go back", () => {
  const table = new RevocationTable();
  table.revoke("ada", 1000);
  table.revoke("grace", 3000);
  table.revoke(null, 2000);
  table.revoke("grace", 2500);
  table.revoke(null, 1500);
  assert.deepEqual(table.read(), { everyone: 2000, users: new Map([["grace", 3000]]) });
});

/** A source whose revocations live in a table; it counts reads, and a read waits for `gate`. */
function countingSource() {
  const table = new RevocationTable();
  const source = {
    reads: 0,
    gate: null as Promise<void> | null,
    async getSessionRevocations(): Promise<SessionRevocations> {
      source.reads++;
      const snapshot = table.read();
      await source.gate;
      return snapshot;
    },
    revokeSessions(user: string | null, at: number) {
      table.revoke(user, at);
      return Promise.resolve();
    },
  };
  return source;
}

Deno.test("the board reads the store's revocations at most every 5 s, and its own at once", async () => {
  let now = 10_000;
  const store = countingSource();
  const here = createSessionRevoker(store as unknown as TaskSource, () => now);
  const there = createSessionRevoker(store as unknown as TaskSource, () => now);
  assert.equal(await there.isRevoked("ada", 9_000), false);
  assert.equal(await there.isRevoked("ada", 9_000), false);
  assert.equal(store.reads, 1, "one read for both checks");
  now += 1000;
  assert.equal(await here.revoke("ada"), 11_000);
  assert.equal(await here.isRevoked("ada", 9_000), true, "the revoking board at once");
  now += REVOCATION_CACHE_MS - 1001;
  assert.equal(await there.isRevoked("ada", 9_000), false, "the other within its 5 s");
  now += 1;
  assert.equal(await there.isRevoked("ada", 9_000), true, "and no later");
});

Deno.test("a read the board's own revocation overtook is not kept", async () => {
  const now = 10_000;
  const store = countingSource();
  const board = createSessionRevoker(store as unknown as TaskSource, () => now);
  let open = () => {};
  store.gate = new Promise((resolve) => open = resolve);
  const before = board.isRevoked("ada", 9_000);
  store.gate = null;
  await board.revoke("ada");
  open();
  assert.equal(await before, false, "the request that started before the revocation");
  assert.equal(await board.isRevoked("ada", 9_000), true);
});

Deno.test("a source with no store of its own keeps the revocations in each board", async () => {
  const source = createMemorySource();
  const one = createSessionRevoker(source, () => 2000);
  const other = createSessionRevoker(source, () => 2000);
  await one.revoke(null);
  assert.equal(await one.isRevoked("ada", 1000), true);
  assert.equal(await other.isRevoked("ada", 1000), false, "never module-global");
  await source.close();
});
