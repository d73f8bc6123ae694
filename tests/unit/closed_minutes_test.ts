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
  cache.of("email", 60)!.set(T, [3, 1]);
  cache.of("email", 60)!.set(T + MINUTE, [4, 0]);
  assert.deepEqual(countsOf(cache.of("email", 60)!, T), [3, 1]);
  assert.deepEqual(countsOf(cache.of("email", 60)!, T + MINUTE), [4, 0]);
  assert.equal(countsOf(cache.of("email", 60)!, T + 2 * MINUTE), null);
  assert.equal(countsOf(cache.of("report", 60)!, T), null);
});

Deno.test("ClosedMinutes adds a known minute to a bucket that already holds others", () => {
  const minutes = new ClosedMinutes().of("email", 60)!;
  minutes.set(T, [3, 1]);
  const hour = { timestamp: T, completed: 10, failed: 2 };
  assert.equal(minutes.addTo(T, hour), true);
  assert.deepEqual(hour, { timestamp: T, completed: 13, failed: 3 });
  assert.equal(minutes.addTo(T + MINUTE, hour), false);
  assert.deepEqual(hour, { timestamp: T, completed: 13, failed: 3 }, "nothing added");
});

Deno.test("ClosedMinutes forgets a minute once the minute 24 h later takes its place", () => {
  const minutes = new ClosedMinutes().of("email", 1440)!;
  minutes.set(T, [1, 0]);
  minutes.set(T + DAY - MINUTE, [2, 0]);
  assert.deepEqual(countsOf(minutes, T), [1, 0], "still inside the 24 h");
  minutes.set(T + DAY, [5, 5]);
  assert.equal(countsOf(minutes, T), null, "its slot now holds the newer minute");
  assert.deepEqual(countsOf(minutes, T + DAY), [5, 5]);
  assert.deepEqual(countsOf(minutes, T + DAY - MINUTE), [2, 0]);
});

Deno.test("ClosedMinutes gives a task only as many slots as the longest window asked of it", () => {
  const cache = new ClosedMinutes();
  for (let i = 0; i < 10_000; i++) cache.of(`task-${i}`, 60);
  // An hour for each of 10,000 tasks: not 10,000 rings of a whole day.
  assert.ok(cache.slots <= 10_000 * 64, `${cache.slots} slots`);
});

Deno.test("ClosedMinutes keeps the minutes a ring holds when a longer window grows it", () => {
  const cache = new ClosedMinutes();
  cache.of("email", 60)!.set(T, [3, 1]);
  cache.of("email", 60)!.set(T + 59 * MINUTE, [4, 0]);
  const day = cache.of("email", 1440)!;
  assert.deepEqual(countsOf(day, T), [3, 1]);
  assert.deepEqual(countsOf(day, T + 59 * MINUTE), [4, 0]);
  day.set(T + 600 * MINUTE, [7, 7]);
  assert.deepEqual(countsOf(cache.of("email", 60)!, T), [3, 1], "a shorter ask never shrinks it");
});

Deno.test("ClosedMinutes holds at most maxSlots: past them a new task gets no ring, the held ones stay", () => {
  const cache = new ClosedMinutes({ maxSlots: 2 * 1440 + 60 });
  for (const task of ["a", "b"]) cache.of(task, 1440)!.set(T, [1, 0]);
  const c = cache.of("c", 1440)!;
  assert.equal(c.capacity, 60, "as much as was left");
  assert.equal(cache.of("d", 60), undefined, "no room: read from Redis each time");
  assert.equal(cache.slots, 2 * 1440 + 60);
  for (const task of ["a", "b"]) assert.deepEqual(countsOf(cache.of(task, 1440)!, T), [1, 0]);
});
