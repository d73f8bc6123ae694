import assert from "node:assert/strict";
import type { BoundedRun } from "../../scripts/bounded_command.ts";
import { type Part, runAtOnce } from "../../scripts/run_at_once.ts";

/** A part that ends when the test says, or failed when told to stop; it records that it started. */
function heldPart(started: string[], name: string) {
  const { promise, resolve } = Promise.withResolvers<BoundedRun>();
  let ended = false;
  let stopped = false;
  const part: Part = (stop) => {
    started.push(name);
    stop.addEventListener("abort", () => {
      if (ended) return;
      stopped = true;
      resolve({ success: false, output: "stopped", timedOut: true });
    }, { once: true });
    return promise;
  };
  return {
    part,
    end: (success: boolean) => {
      ended = true;
      resolve({ success, output: name, timedOut: false });
    },
    stopped: () => stopped,
  };
}

Deno.test("runAtOnce() starts the groups beside the type check, not after it", async () => {
  const started: string[] = [];
  const check = heldPart(started, "check");
  const redis = heldPart(started, "redis");
  const e2e = heldPart(started, "e2e");
  const reported: string[] = [];
  const run = runAtOnce(
    { check: check.part, redis: redis.part, e2e: e2e.part },
    (name) => reported.push(name),
  );
  // The check has not ended: the groups run already.
  assert.deepEqual(started, ["check", "redis", "e2e"]);
  e2e.end(true);
  redis.end(false);
  check.end(true);
  assert.deepEqual(await run, ["redis"]);
  assert.deepEqual(reported, ["e2e", "redis", "check"]);
  assert.equal(e2e.stopped(), false);
});

Deno.test("runAtOnce() stops the groups still running when the type check fails", async () => {
  const started: string[] = [];
  const check = heldPart(started, "check");
  const redis = heldPart(started, "redis");
  const fast = heldPart(started, "fast");
  const run = runAtOnce({ check: check.part, redis: redis.part, fast: fast.part }, () => {});
  fast.end(true);
  check.end(false);
  assert.deepEqual(await run, ["check", "redis"]);
  assert.equal(redis.stopped(), true);
  assert.equal(fast.stopped(), false);
});

Deno.test("runAtOnce() lets the others finish when a test group fails", async () => {
  const started: string[] = [];
  const check = heldPart(started, "check");
  const redis = heldPart(started, "redis");
  const run = runAtOnce({ check: check.part, redis: redis.part }, () => {});
  redis.end(false);
  check.end(true);
  assert.deepEqual(await run, ["redis"]);
  assert.equal(check.stopped(), false);
});
