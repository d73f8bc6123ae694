import assert from "node:assert/strict";
import { ClosedMinutes, type TaskMinutes } from "../../src/source/redis/throughput.ts";

const MINUTE = 60_000;
const DAY = 1440 * MINUTE;
const T = 29_000_000 * MINUTE;

/** What `minutes` adds to an empty bucket for `minute`: its counts, or null when it is not known. */
function countsOf(minutes: TaskMinutes, minute: number): [number, number] | null {
  const bucket = { timestamp: minute, completed: 0, failed: 0 };
  return minutes.addTo(minute, bucket) ? [bucket.completed, bucket.failed] : null;
}

Deno.test("ClosedMinutes keeps each task's closed minutes apart", () => {
  const cache = new ClosedMinutes();
  cache.of("email").set(T, [3, 1]);
  cache.of("email").set(T + MINUTE, [4, 0]);
  assert.deepEqual(countsOf(cache.of("email"), T), [3, 1]);
  assert.deepEqual(countsOf(cache.of("email"), T + MINUTE), [4, 0]);
  assert.equal(countsOf(cache.of("email"), T + 2 * MINUTE), null);
  assert.equal(countsOf(cache.of("report"), T), null);
});

Deno.test("ClosedMinutes adds a known minute to a bucket that already holds others", () => {
  const minutes = new ClosedMinutes().of("email");
  minutes.set(T, [3, 1]);
  const hour = { timestamp: T, completed: 10, failed: 2 };
  assert.equal(minutes.addTo(T, hour), true);
  assert.deepEqual(hour, { timestamp: T, completed: 13, failed: 3 });
  assert.equal(minutes.addTo(T + MINUTE, hour), false);
  assert.deepEqual(hour, { timestamp: T, completed: 13, failed: 3 }, "nothing added");
});

Deno.test("ClosedMinutes forgets a minute once the minute 24 h later takes its place", () => {
  const minutes = new ClosedMinutes().of("email");
  minutes.set(T, [1, 0]);
  minutes.set(T + DAY - MINUTE, [2, 0]);
  assert.deepEqual(countsOf(minutes, T), [1, 0], "still inside the 24 h");
  minutes.set(T + DAY, [5, 5]);
  assert.equal(countsOf(minutes, T), null, "its slot now holds the newer minute");
  assert.deepEqual(countsOf(minutes, T + DAY), [5, 5]);
  assert.deepEqual(countsOf(minutes, T + DAY - MINUTE), [2, 0]);
});
