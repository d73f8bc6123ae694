import assert from "node:assert/strict";
import { drainRateOf, queueWait, windowRate } from "../../src/contract/queue_eta.ts";

const MINUTE = 60_000;
const NOW = 100 * MINUTE;
const SINCE = NOW - 10 * MINUTE;

Deno.test("drainRateOf() runs from the workers' first take within the window, not 10 minutes", () => {
  // Workers started a minute ago and 30 jobs completed or failed since: 30 a minute, not 3.
  const rate = drainRateOf(
    { scanned: 95, oldestAt: NOW - MINUTE, finished: 30, startedAt: NOW - MINUTE },
    SINCE,
    2_000,
    NOW,
  );
  assert.deepEqual(rate, { finished: 30, spanMs: MINUTE, since: "workersStarted" });
  assert.equal(queueWait(60, rate, null), ": about 2 min at the rate since its workers started");
});

Deno.test("drainRateOf() takes the whole window when a job finished before any take, and the entries read when a read stops at its depth", () => {
  const running = { scanned: 40, oldestAt: SINCE + 5_000, finished: 20, startedAt: null };
  assert.deepEqual(drainRateOf(running, SINCE, 2_000, NOW), {
    finished: 20,
    spanMs: 10 * MINUTE,
    since: "window",
  });
  const busy = { scanned: 2_000, oldestAt: NOW - 30_000, finished: 600, startedAt: null };
  const rate = drainRateOf(busy, SINCE, 2_000, NOW);
  assert.deepEqual(rate, { finished: 600, spanMs: 30_000, since: "lastEntries" });
  assert.equal(queueWait(1_200, rate, null), ": about 1 min at the rate of the last 30 s");
});

Deno.test("queueWait() says a job behind a concurrency key at its limit drains at the key's rate", () => {
  const key = { key: "tenant", limit: 1, inUse: 1, holders: ["j1"] };
  assert.equal(
    queueWait(0, windowRate(500), key),
    ": its concurrency key lets 1 run at a time: it drains at that key's rate, not the task's",
  );
  // A key with room, or no limit (taskora checks none at 0), leaves the task's rate.
  assert.match(queueWait(10, windowRate(500), { ...key, inUse: 0 }), /about 12 s/);
  assert.match(queueWait(10, windowRate(500), { ...key, limit: 0 }), /about 12 s/);
});

Deno.test("queueWait() says when none finished, and gives no estimate past the positions counted", () => {
  assert.equal(
    queueWait(3, windowRate(0), null),
    ": none of its jobs completed in the last 10 minutes",
  );
  const started = drainRateOf(
    { scanned: 2, oldestAt: NOW - 20_000, finished: 0, startedAt: NOW - 20_000 },
    SINCE,
    2_000,
    NOW,
  );
  assert.equal(queueWait(3, started, null), ": none of its jobs finished in the last 20 s");
  assert.equal(queueWait(null, windowRate(50), null), "");
});
