import assert from "node:assert/strict";
import { Pacer } from "../../src/source/redis/pacer.ts";

Deno.test("Pacer spends a full bucket at once, then makes the next spend wait", async () => {
  const pacer = new Pacer(1000);
  await pacer.take(1000);
  assert.equal(pacer.waited, 0);
  await pacer.take(10);
  assert.equal(pacer.spent, 1010);
  assert.ok(pacer.waited > 0, "the 11th command had to wait for the budget");
});

Deno.test("Pacer: a charge after the fact is repaid before the next take", async () => {
  const pacer = new Pacer(100_000);
  pacer.charge(200_000);
  await pacer.take(1);
  assert.ok(pacer.waited > 0);
  assert.equal(pacer.spent, 200_001);
});

Deno.test("Pacer: an aborted take spends nothing", async () => {
  const pacer = new Pacer(10);
  await pacer.take(10);
  const stop = new AbortController();
  const waiting = pacer.take(5, stop.signal);
  stop.abort();
  await waiting;
  assert.equal(pacer.spent, 10);
});
