/**
 * The login throttle on a hand-moved clock: the delay, what starts it over,
 * and the bound of its table.
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
  const waits: number[] = [];
  for (let i = 0; i < 6; i++) {
    throttle.fail(ada);
    waits.push(throttle.wait(ada));
    clock.now += throttle.wait(ada);
  }
  assert.deepEqual(waits, [0, 0, 1000, 2000, 4000, 8000]);
});

Deno.test("createLoginThrottle() knows a username by what a person types, case and spaces aside", () => {
  const { throttle } = clocked({ ...LIMITS, attempts: 1 });
  throttle.fail({ username: " Ada ", address: null });
  assert.equal(throttle.wait({ username: "ada", address: null }), 1000);
});

Deno.test("createLoginThrottle() forgets a key maxDelay after its last failure or lock", () => {
  const { clock, throttle } = clocked();
  const ada = { username: "ada", address: "192.0.2.1" };
  throttle.fail(ada);
  throttle.fail(ada);
  clock.now += LIMITS.maxDelayMs;
  throttle.fail(ada);
  assert.equal(throttle.wait(ada), 0, "the count started over");
});

Deno.test("createLoginThrottle() tracks at most maxEntries keys, forgetting the least recently failed", () => {
  const { throttle } = clocked({ ...LIMITS, attempts: 1, maxEntries: 100 });
  throttle.fail({ username: "first", address: null });
  for (let i = 0; i < 100; i++) throttle.fail({ username: `user${i}`, address: null });
  assert.equal(throttle.wait({ username: "first", address: null }), 0, "evicted");
  assert.equal(throttle.wait({ username: "user99", address: null }), 1000);
  assert.equal(throttle.wait({ username: "user0", address: null }), 1000);
});

Deno.test("createLoginThrottle(): a success starts the username over, not the address", () => {
  const { throttle } = clocked({ ...LIMITS, attempts: 1, addressAttempts: 2 });
  const ada = { username: "ada", address: "192.0.2.1" };
  throttle.fail(ada);
  throttle.succeed(ada);
  assert.equal(throttle.wait({ username: "ada", address: null }), 0);
  throttle.fail({ username: "grace", address: "192.0.2.1" });
  assert.equal(
    throttle.wait({ username: "bob", address: "192.0.2.1" }),
    1000,
    "2 from the address",
  );
});
