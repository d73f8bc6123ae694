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
