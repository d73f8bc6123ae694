/**
 * The BoardStore contract for scan slots: the slots are counted for every
 * board on one store, so two handles on it (two replicas' stores on one
 * Redis; two boards on one memory store) share the cap, one user's half
 * and the readers' share; a slot not renewed expires, so a dead process's
 * slots come back.
 */

import assert from "node:assert/strict";
import type { ScanSlotClaim } from "../../src/store/scan_slot_rules.ts";
import type { BoardStore } from "../../src/store/types.ts";
import type { FakeTimers } from "../helpers/fake_timers.ts";

/** Two handles on one store, whose clock is `timers`. */
export interface TwoHandles {
  first: BoardStore;
  second: BoardStore;
  timers: FakeTimers;
  close(): Promise<void>;
}

const TTL_MS = 30_000;
let serial = 0;

/** A claim of `user` (a reader unless `mutator`; nobody when null) for one of 4 slots. */
function claim(user: string | null, mutator = false): ScanSlotClaim {
  return { id: `scan-${++serial}`, user, mutator, max: 4, ttlMs: TTL_MS };
}

/** Registers the scan-slot contract for the handles `open` makes. */
export function scanSlotContract(name: string, open: () => Promise<TwoHandles>): void {
  Deno.test(`${name}: scan slots are counted across handles: the cap, one user's half`, async () => {
    const { first, second, close } = await open();
    try {
      const vic = [claim("vic"), claim("vic"), claim("vic")];
      assert.equal(await first.takeScanSlot(vic[0]), null);
      assert.equal(await second.takeScanSlot(vic[1]), null);
      assert.deepEqual(await first.takeScanSlot(vic[2]), { reason: "user", held: 2 });
      assert.equal(await second.takeScanSlot(claim(null)), null);
      assert.equal(await first.takeScanSlot(claim("oz", true)), null);
      assert.deepEqual(await second.takeScanSlot(claim(null)), { reason: "full", taken: 4 });
      await second.releaseScanSlot(vic[0]);
      assert.equal(await first.takeScanSlot(vic[2]), null, "a slot given back on one handle");
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: readers leave the last slot to a user who may act, on any handle`, async () => {
    const { first, second, close } = await open();
    try {
      assert.equal(await first.takeScanSlot(claim("ann")), null);
      assert.equal(await second.takeScanSlot(claim("bob")), null);
      assert.equal(await first.takeScanSlot(claim("cy")), null);
      assert.deepEqual(await second.takeScanSlot(claim("dee")), { reason: "readers", readers: 3 });
      assert.equal(await second.takeScanSlot(claim("oz", true)), null);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a slot not renewed expires; a renewed one stays`, async () => {
    const { first, second, timers, close } = await open();
    try {
      const renewed = claim("vic");
      assert.equal(await first.takeScanSlot(renewed), null);
      assert.equal(await first.takeScanSlot(claim("vic")), null, "its process dies");
      await timers.tick(TTL_MS - 1);
      await first.renewScanSlot(renewed);
      assert.deepEqual(await second.takeScanSlot(claim("vic")), { reason: "user", held: 2 });
      await timers.tick(1);
      assert.equal(await second.takeScanSlot(claim("vic")), null, "the dead one's slot is back");
      assert.deepEqual(await second.takeScanSlot(claim("vic")), { reason: "user", held: 2 });
    } finally {
      await close();
    }
  });
}
