import assert from "node:assert/strict";
import { ScanSlots } from "../../src/scans/slots.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

const reader = (user: string) => ({ user, mutator: false });
const operator = (user: string) => ({ user, mutator: true });

/** Slots of a board alone on its memory store, on fake timers. */
function ownSlots(max: number) {
  const timers = new FakeTimers();
  const store = createMemoryBoardStore({ shared: false, now: () => timers.now() });
  return { slots: new ScanSlots(store, { max, timers }), timers };
}

Deno.test("ScanSlots refuses a scan past its cap, and frees a slot once released (twice is once)", async () => {
  const { slots } = ownSlots(2);
  const first = await slots.take();
  await slots.take();
  await assert.rejects(slots.take(), { code: "INVALID_STATE" });
  first();
  first();
  await slots.take();
  await assert.rejects(slots.take(), { code: "INVALID_STATE" }, "a second release frees no more");
});

Deno.test("ScanSlots.hold gives its slot back whether the work ends or throws", async () => {
  const { slots } = ownSlots(1);
  assert.equal(await slots.hold(() => Promise.resolve(42)), 42);
  await assert.rejects(slots.hold(() => Promise.reject(new Error("Redis went away"))), /went away/);
  const release = await slots.take();
  let ran = false;
  await assert.rejects(slots.hold(() => Promise.resolve(ran = true)), { code: "INVALID_STATE" });
  assert.equal(ran, false, "refused work never runs");
  release();
});

Deno.test("ScanSlots: one user holds at most half of the slots", async () => {
  const { slots } = ownSlots(4);
  await slots.take(reader("ann"));
  await slots.take(reader("ann"));
  await assert.rejects(
    slots.take(reader("ann")),
    (error: Error & { code: string }) =>
      error.code === "INVALID_STATE" && /ann holds 2 of the 4/.test(error.message),
  );
  await slots.take(reader("bob"));
});

Deno.test("ScanSlots: readers leave one slot that a user allowed a mutation can always take", async () => {
  const { slots } = ownSlots(4);
  await slots.take(reader("ann"));
  await slots.take(reader("ann"));
  await slots.take(reader("bob"));
  await assert.rejects(slots.take(reader("cy")), /kept for a user who may act/);
  const release = await slots.take(operator("oz"));
  release();
  await slots.take(operator("oz"));
});

Deno.test("ScanSlots: without a login nobody is named, and only the cap holds", async () => {
  const { slots } = ownSlots(4);
  for (let n = 0; n < 4; n++) await slots.take({ user: null, mutator: true });
  await assert.rejects(slots.take({ user: null, mutator: true }), { code: "INVALID_STATE" });
});

Deno.test("ScanSlots renews a running scan's slot; a released one is renewed no more", async () => {
  const timers = new FakeTimers();
  const store = createMemoryBoardStore({ now: () => timers.now() });
  const renewed: string[] = [];
  const renew = store.renewScanSlot.bind(store);
  store.renewScanSlot = (claim) => {
    renewed.push(claim.id);
    return renew(claim);
  };
  const slots = new ScanSlots(store, { max: 2, ttlMs: 30_000, timers });
  try {
    await slots.take(reader("vic"));
    const released = await slots.take(operator("ann"));
    released();
    await timers.tick(90_000);
    assert.equal(new Set(renewed).size, 1, "only the running scan's slot is renewed");
    assert.equal(renewed.length, 9, "every 10 s, a third of its 30 s");
    await slots.take(operator("oz"));
    await assert.rejects(
      slots.take(operator("al")),
      /2 searches or filter counts are running/,
      "vic's slot outlived its 30 s",
    );
  } finally {
    await store.close();
  }
});

Deno.test("ScanSlots over a source's store count for every board on it", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ now: () => timers.now() });
  const [a, b] = [0, 1].map(() => new ScanSlots(source.boardStore, { max: 4, timers }));
  try {
    await a.take(reader("vic"));
    await b.take(reader("vic"));
    await assert.rejects(a.take(reader("vic")), /vic holds 2 of the 4/);
  } finally {
    await source.close();
  }
});
