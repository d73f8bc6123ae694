import assert from "node:assert/strict";
import { ScanSlots } from "../../src/api/scan_slots.ts";
import type { BoardError } from "../../src/errors.ts";

Deno.test("ScanSlots refuses a scan past its cap, and frees a slot once released (twice is once)", () => {
  const slots = new ScanSlots(2);
  const first = slots.take();
  slots.take();
  assert.throws(() => slots.take(), (error: BoardError) => error.code === "INVALID_STATE");
  first();
  first();
  assert.equal(slots.taken, 1, "a second release frees nothing more");
  slots.take();
  assert.equal(slots.taken, 2);
});

Deno.test("ScanSlots.hold gives its slot back whether the work ends or throws", async () => {
  const slots = new ScanSlots(1);
  assert.equal(await slots.hold(() => Promise.resolve(42)), 42);
  await assert.rejects(slots.hold(() => Promise.reject(new Error("Redis went away"))), /went away/);
  assert.equal(slots.taken, 0);
  const release = slots.take();
  let ran = false;
  await assert.rejects(slots.hold(() => Promise.resolve(ran = true)), { code: "INVALID_STATE" });
  assert.equal(ran, false, "refused work never runs");
  release();
});

const reader = (user: string) => ({ user, mutator: false });
const operator = (user: string) => ({ user, mutator: true });

Deno.test("ScanSlots: one user holds at most half of the slots", () => {
  const slots = new ScanSlots(4);
  slots.take(reader("ann"));
  slots.take(reader("ann"));
  assert.throws(
    () => slots.take(reader("ann")),
    (error: BoardError) => error.code === "INVALID_STATE" && /ann holds 2 of/.test(error.message),
  );
  slots.take(reader("bob"));
  assert.equal(slots.taken, 3);
});

Deno.test("ScanSlots: readers leave one slot that a user allowed a mutation can always take", () => {
  const slots = new ScanSlots(4);
  slots.take(reader("ann"));
  slots.take(reader("ann"));
  slots.take(reader("bob"));
  assert.throws(
    () => slots.take(reader("cy")),
    (error: BoardError) => error.code === "INVALID_STATE",
  );
  const release = slots.take(operator("oz"));
  assert.equal(slots.taken, 4);
  release();
  slots.take(operator("oz"));
});

Deno.test("ScanSlots: without a login nobody is named, and only the board's cap holds", () => {
  const slots = new ScanSlots(4);
  for (let n = 0; n < 4; n++) slots.take({ user: null, mutator: true });
  assert.throws(() => slots.take({ user: null, mutator: true }), { code: "INVALID_STATE" });
});
