/**
 * The login throttle on a hand-moved clock: the delay, what starts it over,
 * and the bound of its table. An attempt let through (`reserve`) counts as
 * failed until `succeed` says otherwise.
 */

import assert from "node:assert/strict";
import { createLoginThrottle } from "../../src/auth/login_throttle.ts";

const LIMITS = {
  attempts: 3,
  addressAttempts: 5,
  delayMs: 1000,
  maxDelayMs: 60_000,
  maxEntries: 100,
};

function clocked(limits = LIMITS) {
  const clock = { now: 1_000_000 };
  return { clock, throttle: createLoginThrottle(limits, () => clock.now) };
}

Deno.test("createLoginThrottle() lets `attempts` failures through, then waits, doubling", () => {
  const { clock, throttle } = clocked();
  const ada = { username: "ada", address: null };
  // Each attempt failed, each wait waited out.
  const answers: number[] = [];
  for (let i = 0; i < 10; i++) {
    const wait = throttle.reserve(ada);
    answers.push(wait);
    clock.now += wait;
  }
  assert.deepEqual(answers, [0, 0, 0, 1000, 0, 2000, 0, 4000, 0, 8000]);
});

Deno.test("createLoginThrottle() counts an attempt when it lets it through: in flight at once, 3 of 10", () => {
  const { throttle } = clocked();
  const ada = { username: "ada", address: null };
  const answers = Array.from({ length: 10 }, () => throttle.reserve(ada));
  assert.deepEqual(answers, [0, 0, 0, 1000, 1000, 1000, 1000, 1000, 1000, 1000]);
});

Deno.test("createLoginThrottle() knows a username by what a person types, case and spaces aside", () => {
  const { throttle } = clocked({ ...LIMITS, attempts: 1 });
  throttle.reserve({ username: " Ada ", address: null });
  assert.equal(throttle.reserve({ username: "ada", address: null }), 1000);
});

Deno.test("createLoginThrottle() forgets a key maxDelay after its last failure or lock", () => {
  const { clock, throttle } = clocked();
  const ada = { username: "ada", address: "192.0.2.1" };
  throttle.reserve(ada);
  throttle.reserve(ada);
  clock.now += LIMITS.maxDelayMs;
  throttle.reserve(ada);
  assert.equal(throttle.reserve(ada), 0, "the count started over: this is the second");
});

Deno.test("createLoginThrottle() tracks at most maxEntries keys, forgetting the least recently failed", () => {
  const { throttle } = clocked({ ...LIMITS, attempts: 2, maxEntries: 100 });
  throttle.reserve({ username: "first", address: null });
  for (let i = 0; i < 100; i++) throttle.reserve({ username: `user${i}`, address: null });
  throttle.reserve({ username: "first", address: null });
  assert.equal(throttle.reserve({ username: "first", address: null }), 0, "evicted: one, not two");
  throttle.reserve({ username: "user99", address: null });
  assert.equal(throttle.reserve({ username: "user99", address: null }), 1000);
});

Deno.test("createLoginThrottle(): a success starts the username over, and gives the address its attempt back", () => {
  const { throttle } = clocked({ ...LIMITS, attempts: 1, addressAttempts: 2 });
  const ada = { username: "ada", address: "192.0.2.1" };
  throttle.reserve(ada);
  throttle.succeed(ada);
  throttle.reserve({ username: "grace", address: "192.0.2.1" });
  assert.equal(throttle.reserve({ username: "ada", address: null }), 0, "ada started over");
  assert.equal(
    throttle.reserve({ username: "bob", address: "192.0.2.1" }),
    0,
    "the address counts grace's failure, not ada's success",
  );
  assert.equal(
    throttle.reserve({ username: "eve", address: "192.0.2.1" }),
    1000,
    "2 failures from the address (grace, bob)",
  );
});

Deno.test("createLoginThrottle() makes room with keys that wait for nothing; a lock stays until it ends", () => {
  const { clock, throttle } = clocked({ ...LIMITS, attempts: 1, maxEntries: 100 });
  const ada = { username: "ada", address: null };
  throttle.reserve(ada);
  clock.now += throttle.reserve(ada);
  throttle.reserve(ada); // locked for 2 s
  for (let i = 0; i < 150; i++) throttle.reserve({ username: `junk${i}`, address: null });
  assert.equal(throttle.reserve(ada), 2000, "every junk key is locked for 1 s: those went first");
  clock.now += 2000;
  // Every lock has ended: room is made from the least recently failed again.
  for (let i = 0; i < 100; i++) throttle.reserve({ username: `fresh${i}`, address: null });
  throttle.reserve(ada);
  assert.equal(throttle.reserve(ada), 1000, "forgotten once its lock ended: counted from 1 again");
});
