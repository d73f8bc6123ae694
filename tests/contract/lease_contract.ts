/**
 * The BoardStore contract for what board replicas share: a named lease
 * (`holdLease` takes a free one or renews the holder's own, `releaseLease`
 * gives back only the holder's), the leader's shared results with their TTL,
 * and the capped sets of what boards were asked for.
 */

import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";
import type { StoreSeed } from "./board_store_contract.ts";

/** Registers the lease contract for the store `seed` makes. */
export function leaseContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: a lease is held by one holder at a time, renewed by it alone`, async () => {
    const { store, close } = await seed();
    try {
      const first = await store.holdLease("leader", "a", 10_000);
      assert.deepEqual(first, { held: true, expiresInMs: 10_000 });
      const other = await store.holdLease("leader", "b", 10_000);
      assert.equal(other.held, false);
      assert.ok(other.expiresInMs > 0 && other.expiresInMs <= 10_000, String(other.expiresInMs));
      assert.deepEqual(await store.holdLease("leader", "a", 20_000), {
        held: true,
        expiresInMs: 20_000,
      });
      // Another name is another lease.
      assert.equal((await store.holdLease("alerts", "b", 10_000)).held, true);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: how long a lease runs on is read without taking it`, async () => {
    const { store, close } = await seed();
    try {
      assert.equal(await store.leaseRemaining("leader"), 0, "nobody holds it");
      await store.holdLease("leader", "a", 10_000);
      const left = await store.leaseRemaining("leader");
      assert.ok(left > 0 && left <= 10_000, String(left));
      assert.equal((await store.holdLease("leader", "b", 10_000)).held, false, "still a's");
      await store.releaseLease("leader", "a");
      assert.equal(await store.leaseRemaining("leader"), 0, "given back");
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a lease is given back by its holder only`, async () => {
    const { store, close } = await seed();
    try {
      await store.holdLease("leader", "a", 10_000);
      await store.releaseLease("leader", "b");
      assert.equal((await store.holdLease("leader", "b", 10_000)).held, false);
      await store.releaseLease("leader", "a");
      assert.equal((await store.holdLease("leader", "b", 10_000)).held, true);
      assert.equal((await store.holdLease("leader", "a", 10_000)).held, false);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a lease nobody renews runs out, and another takes it`, async () => {
    const { store, close } = await seed();
    try {
      await store.holdLease("leader", "a", 1);
      // The store's own clock lets it go: waited for, not driven.
      await waitFor(async () => (await store.holdLease("leader", "b", 10_000)).held, {
        what: "the lease to run out",
      });
      assert.equal((await store.holdLease("leader", "a", 10_000)).held, false);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a shared result is read back until it expires`, async () => {
    const { store, close } = await seed();
    try {
      assert.equal(await store.readSharedResult("tasks"), null);
      await store.shareResult("tasks", '{"tasks":["email"]}', 10_000);
      assert.equal(await store.readSharedResult("tasks"), '{"tasks":["email"]}');
      await store.shareResult("tasks", "newer", 1);
      await waitFor(async () => await store.readSharedResult("tasks") === null, {
        what: "the shared result to expire",
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: an asked set keeps the last asked, newest first`, async () => {
    const { store, close } = await seed();
    try {
      for (const task of ["email", "image", "report", "email"]) {
        await store.noteAsked("latency", task, 2);
        await new Promise((resolve) => setTimeout(resolve, 2)); // distinct times
      }
      assert.deepEqual(await store.listAsked("latency", 60_000), ["email", "report"]);
      assert.deepEqual(await store.listAsked("other", 60_000), []);
    } finally {
      await close();
    }
  });
}
