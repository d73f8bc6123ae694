/**
 * The TaskSource contract for what board replicas share: a named lease
 * (`holdLease` takes a free one or renews the holder's own, `releaseLease`
 * gives back only the holder's), the leader's shared results with their TTL,
 * and the capped sets of what boards were asked for.
 */

import assert from "node:assert/strict";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";
import type { Seed } from "./source_contract.ts";

/** Registers the lease contract for the source `seed` makes. */
export function leaseContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: a lease is held by one holder at a time, renewed by it alone`, async () => {
    const { source, close } = await seed(dump);
    try {
      const first = await source.holdLease!("leader", "a", 10_000);
      assert.deepEqual(first, { held: true, expiresInMs: 10_000 });
      const other = await source.holdLease!("leader", "b", 10_000);
      assert.equal(other.held, false);
      assert.ok(other.expiresInMs > 0 && other.expiresInMs <= 10_000, String(other.expiresInMs));
      assert.deepEqual(await source.holdLease!("leader", "a", 20_000), {
        held: true,
        expiresInMs: 20_000,
      });
      // Another name is another lease.
      assert.equal((await source.holdLease!("alerts", "b", 10_000)).held, true);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a lease is given back by its holder only`, async () => {
    const { source, close } = await seed(dump);
    try {
      await source.holdLease!("leader", "a", 10_000);
      await source.releaseLease!("leader", "b");
      assert.equal((await source.holdLease!("leader", "b", 10_000)).held, false);
      await source.releaseLease!("leader", "a");
      assert.equal((await source.holdLease!("leader", "b", 10_000)).held, true);
      assert.equal((await source.holdLease!("leader", "a", 10_000)).held, false);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a lease nobody renews runs out, and another takes it`, async () => {
    const { source, close } = await seed(dump);
    try {
      await source.holdLease!("leader", "a", 1);
      // The store's own clock lets it go: waited for, not driven.
      await waitFor(async () => (await source.holdLease!("leader", "b", 10_000)).held, {
        what: "the lease to run out",
      });
      assert.equal((await source.holdLease!("leader", "a", 10_000)).held, false);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a shared result is read back until it expires`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.equal(await source.readSharedResult!("tasks"), null);
      await source.shareResult!("tasks", '{"tasks":["email"]}', 10_000);
      assert.equal(await source.readSharedResult!("tasks"), '{"tasks":["email"]}');
      await source.shareResult!("tasks", "newer", 1);
      await waitFor(async () => await source.readSharedResult!("tasks") === null, {
        what: "the shared result to expire",
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: an asked set keeps the last asked, newest first`, async () => {
    const { source, close } = await seed(dump);
    try {
      for (const task of ["email", "image", "report", "email"]) {
        await source.noteAsked!("latency", task, 2);
        await new Promise((resolve) => setTimeout(resolve, 2)); // distinct times
      }
      assert.deepEqual(await source.listAsked!("latency", 60_000), ["email", "report"]);
      assert.deepEqual(await source.listAsked!("other", 60_000), []);
    } finally {
      await close();
    }
  });
}
