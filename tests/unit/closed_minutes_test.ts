import assert from "node:assert/strict";
import { ClosedMinutes } from "../../src/source/redis/throughput.ts";

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const T = 29_000_000 * MINUTE;

Deno.test("ClosedMinutes keeps each task's closed minutes apart", () => {
  const cache = new ClosedMinutes();
  cache.of("email").set(T, [3, 1]);
  cache.of("email").set(T + MINUTE, [4, 0]);
  assert.deepEqual(cache.of("email").get(T), [3, 1]);
  assert.deepEqual(cache.of("email").get(T + MINUTE), [4, 0]);
  assert.equal(cache.of("email").has(T + 2 * MINUTE), false);
  assert.equal(cache.of("report").has(T), false);
});

Deno.test("ClosedMinutes forgets a minute once the minute 24 h later takes its place", () => {
  const minutes = new ClosedMinutes().of("email");
  minutes.set(T, [1, 0]);
  minutes.set(T + DAY - MINUTE, [2, 0]);
  assert.equal(minutes.has(T), true, "still inside the 24 h");
  minutes.set(T + DAY, [5, 5]);
  assert.equal(minutes.has(T), false);
  assert.equal(minutes.get(T), undefined, "its slot now holds the newer minute");
  assert.deepEqual(minutes.get(T + DAY), [5, 5]);
  assert.deepEqual(minutes.get(T + DAY - MINUTE), [2, 0]);
});
