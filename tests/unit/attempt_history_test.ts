import assert from "node:assert/strict";
import { type AttemptEntry, collectAttempts } from "../../src/source/attempt_history.ts";

/** One chunk holding `entries` (given oldest first), the whole stream. */
function history(entries: Partial<AttemptEntry>[], state = "completed") {
  const found = entries.map((entry): AttemptEntry => ({
    event: "active",
    attempt: null,
    error: null,
    at: 0,
    nextAttemptAt: null,
    action: null,
    ...entry,
  })).reverse();
  return collectAttempts(
    { createdAt: 0, attempt: 1, state, error: null },
    () => Promise.resolve({ found, scanned: found.length, oldestAt: null, reachedStart: true }),
  );
}

Deno.test("collectAttempts() finds each run, and a finished job the stall check put back", async () => {
  const { runs, attempts } = await history([
    { event: "active", at: 100 },
    { event: "completed", at: 900 },
    { event: "stalled", action: "recovered", at: 30_000 },
    { event: "active", at: 30_050 },
    { event: "completed", at: 30_800 },
  ]);
  assert.deepEqual(runs, [
    { startedAt: 100, outcome: "completed", endedAt: 900, requeuedAt: 30_000 },
    { startedAt: 30_050, outcome: "completed", endedAt: 30_800, requeuedAt: null },
  ]);
  assert.deepEqual(attempts, []);
});

Deno.test("collectAttempts() ends a run by its retry or by the stall check; the one running has no end", async () => {
  const { runs, attempts } = await history([
    { event: "active", at: 100 },
    { event: "retrying", attempt: 2, at: 200, nextAttemptAt: 300 },
    { event: "active", at: 300 },
    { event: "stalled", action: "recovered", at: 60_000 },
    { event: "active", at: 60_100 },
  ], "active");
  assert.deepEqual(runs.map((run) => [run.outcome, run.endedAt, run.requeuedAt]), [
    ["retrying", 200, null],
    ["stalled", 60_000, null],
    [null, null, null],
  ]);
  assert.deepEqual(attempts.map((attempt) => attempt.attempt), [1]);
});

Deno.test("collectAttempts() puts a finished run back only for a recovered stall, not a failed one", async () => {
  const { runs } = await history([
    { event: "active", at: 100 },
    { event: "completed", at: 900 },
    { event: "stalled", action: "failed", at: 30_000 },
    { event: "failed", at: 30_000 },
  ], "failed");
  assert.deepEqual(runs, [{
    startedAt: 100,
    outcome: "completed",
    endedAt: 900,
    requeuedAt: null,
  }]);
});
