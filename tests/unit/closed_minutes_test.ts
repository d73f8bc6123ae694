import assert from "node:assert/strict";
import { ClosedMinutes } from "../../src/source/redis/throughput.ts";

const MINUTE = 60_000;

Deno.test("ClosedMinutes keeps a closed minute's counts until it leaves the window", () => {
  const cache = new ClosedMinutes();
  cache.set("email", 10 * MINUTE, [3, 1]);
  cache.set("email", 11 * MINUTE, [4, 0]);
  cache.prune(11 * MINUTE);
  assert.equal(cache.has("email", 10 * MINUTE), false);
  assert.deepEqual(cache.get("email", 11 * MINUTE), [4, 0]);
});

Deno.test("ClosedMinutes forgets again once the window moves on", () => {
  const cache = new ClosedMinutes();
  cache.prune(10 * MINUTE);
  cache.set("email", 10 * MINUTE, [1, 0]);
  cache.set("email", 12 * MINUTE, [2, 0]);
  cache.prune(10 * MINUTE); // the same window: nothing to forget
  assert.equal(cache.has("email", 10 * MINUTE), true);
  cache.prune(11 * MINUTE);
  assert.equal(cache.has("email", 10 * MINUTE), false);
  assert.equal(cache.has("email", 12 * MINUTE), true);
});
