import assert from "node:assert/strict";
import {
  ACTIVE_TOO_LONG_MS,
  DEFAULT_MAX_IDLE_MS,
  DEFAULT_MAX_WAIT_MS,
  idleFor,
  OVERDUE_AFTER_MS,
  queuedSince,
  type QueueHeads,
  roughDuration,
  taskHealth,
} from "../../src/contract/health.ts";
import type { QueueStats } from "../../src/contract/states.ts";
import type { ThroughputBucket } from "../../src/contract/throughput.ts";
import { NO_JOBS } from "../helpers/fixture.ts";

const NOW = 1_800_000_000_000;
const HOUR = 3_600_000;
const IDLE: QueueStats = NO_JOBS;
const NO_HEADS: QueueHeads = { oldestWaiting: null, oldestActive: null, nextDue: null };

function minutes(completed: number, failed: number): ThroughputBucket[] {
  return [{ timestamp: NOW - 60_000, completed, failed }];
}

Deno.test("taskHealth() says no failures only when jobs finished and none failed", () => {
  const busy = { ...IDLE, active: 2 };
  assert.deepEqual(taskHealth(busy, minutes(40, 0), NO_HEADS, NOW), {
    status: "healthy",
    reason: "no failures in the last 15 min",
    failureRate: 0,
    noProgress: false,
  });
  assert.deepEqual(taskHealth(busy, [], NO_HEADS, NOW), {
    status: "healthy",
    reason: "nothing finished in the last 15 min",
    failureRate: null,
    noProgress: false,
  });
  assert.equal(
    taskHealth(busy, minutes(299, 1), NO_HEADS, NOW).reason,
    "1 of 300 jobs failed in the last 15 min",
  );
});

Deno.test("taskHealth() flags a job active for hours, naming it and for how long", () => {
  const heads: QueueHeads = {
    ...NO_HEADS,
    oldestActive: { id: "1a2b3c4d-0000-4000-8000-000000000000", since: NOW - 3 * HOUR - 60_000 },
  };
  assert.deepEqual(taskHealth({ ...IDLE, active: 1 }, minutes(5, 0), heads, NOW), {
    status: "warning",
    reason: "job 1a2b3c4d active for 3 h",
    failureRate: 0,
    noProgress: false,
  });
  const recent = { ...heads, oldestActive: { id: "x", since: NOW - ACTIVE_TOO_LONG_MS + 1 } };
  assert.equal(taskHealth({ ...IDLE, active: 1 }, minutes(5, 0), recent, NOW).status, "healthy");
});

Deno.test("taskHealth() flags a delayed job long past its run time", () => {
  const heads: QueueHeads = { ...NO_HEADS, nextDue: { id: "9f8e7d6c5b", at: NOW - 2 * HOUR } };
  assert.deepEqual(taskHealth({ ...IDLE, delayed: 4 }, [], heads, NOW), {
    status: "warning",
    reason: "job 9f8e7d6c overdue by 2 h: no worker is picking up due jobs",
    failureRate: null,
    noProgress: false,
  });
  // Due a moment ago is the workers' polling, not a problem; due later is fine.
  for (const at of [NOW - OVERDUE_AFTER_MS + 1, NOW + HOUR]) {
    const due = { ...NO_HEADS, nextDue: { id: "9f8e7d6c5b", at } };
    assert.equal(taskHealth({ ...IDLE, delayed: 4 }, [], due, NOW).status, "healthy");
  }
});

Deno.test("taskHealth() puts failures before stuck jobs, and stuck jobs before retries", () => {
  const stuck: QueueHeads = {
    oldestWaiting: null,
    oldestActive: { id: "active-1", since: NOW - 5 * HOUR },
    nextDue: { id: "due-1", at: NOW - HOUR },
  };
  const stats = { ...IDLE, active: 1, delayed: 1, retrying: 2 };
  assert.equal(
    taskHealth(stats, minutes(1, 1), stuck, NOW).reason,
    "50 % of jobs failed in the last 15 min",
  );
  assert.equal(
    taskHealth(stats, minutes(8, 2), stuck, NOW).reason,
    "20 % of jobs failed in the last 15 min",
  );
  assert.match(taskHealth(stats, minutes(9, 0), stuck, NOW).reason, /^job due-1 overdue by 1 h/);
  const active = { ...stuck, nextDue: null };
  assert.equal(taskHealth(stats, minutes(9, 0), active, NOW).reason, "job active-1 active for 5 h");
  assert.equal(taskHealth(stats, minutes(9, 0), NO_HEADS, NOW).reason, "2 jobs retrying");
});

Deno.test("taskHealth() agrees a count with its noun: 1 job retrying", () => {
  const one = { ...IDLE, active: 1, retrying: 1 };
  assert.equal(taskHealth(one, minutes(9, 0), NO_HEADS, NOW).reason, "1 job retrying");
});

Deno.test("taskHealth() flags a job waiting longer than maxWaitMs, before overdue ones", () => {
  const heads: QueueHeads = {
    ...NO_HEADS,
    oldestWaiting: { id: "5e6f7a8b9c", since: NOW - 25 * 60_000 },
    nextDue: { id: "due-1", at: NOW - HOUR },
  };
  const busy = { ...IDLE, waiting: 30, active: 1, delayed: 1 };
  assert.deepEqual(taskHealth(busy, minutes(9, 0), heads, NOW), {
    status: "warning",
    reason: "job 5e6f7a8b waiting for 25 min (over 10 min)",
    failureRate: 0,
    noProgress: false,
  });
  // The threshold is the board's option: a longer one lets the wait pass.
  assert.match(taskHealth(busy, minutes(9, 0), heads, NOW, HOUR).reason, /^job due-1 overdue/);
  const fresh = { ...NO_HEADS, oldestWaiting: { id: "x", since: NOW - DEFAULT_MAX_WAIT_MS + 1 } };
  assert.equal(taskHealth(busy, minutes(9, 0), fresh, NOW).status, "healthy");
});

Deno.test("queuedSince() counts a delayed dispatch from its run-at, a rerun from its last start", () => {
  assert.equal(queuedSince({ createdAt: 1000, delay: 0, processedAt: null }), 1000);
  assert.equal(queuedSince({ createdAt: 1000, delay: 500, processedAt: null }), 1500);
  // Retried by taskora: ts kept, so the last attempt's start is the later.
  assert.equal(queuedSince({ createdAt: 1000, delay: 500, processedAt: 4000 }), 4000);
  // Retried from the dead letters by taskora's retryDLQ: a fresh ts, processedOn kept.
  assert.equal(queuedSince({ createdAt: 9000, delay: 0, processedAt: 4000 }), 9000);
});

Deno.test("taskHealth() is critical when waiting work does not move, idle when there is none", () => {
  assert.deepEqual(taskHealth({ ...IDLE, waiting: 7 }, [], NO_HEADS, NOW), {
    status: "critical",
    reason: "7 waiting, none running or finished in the last 15 min",
    failureRate: null,
    noProgress: false,
  });
  assert.equal(taskHealth(IDLE, [], NO_HEADS, NOW).status, "idle");
});

Deno.test("roughDuration() speaks in the unit that matters", () => {
  assert.equal(roughDuration(42_000), "42 s");
  assert.equal(roughDuration(12 * 60_000 + 59_000), "12 min");
  assert.equal(roughDuration(3 * HOUR + 59 * 60_000), "3 h");
  assert.equal(roughDuration(47 * HOUR), "47 h");
  assert.equal(roughDuration(50 * HOUR), "2 d");
  assert.equal(roughDuration(-5), "0 s");
});

Deno.test("taskHealth() is critical with noProgress when jobs wait and none was taken for over maxIdleMs", () => {
  const waiting = { ...IDLE, waiting: 12 };
  const idle = { ms: DEFAULT_MAX_IDLE_MS + 2 * 60_000, maxMs: DEFAULT_MAX_IDLE_MS };
  // Jobs finished recently (the last ones before the workers went), so only noProgress tells.
  assert.deepEqual(taskHealth(waiting, minutes(30, 0), NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, idle), {
    status: "critical",
    reason: "12 waiting, none taken for 7 min (over 5 min): no worker is taking jobs",
    failureRate: 0,
    noProgress: true,
  });
  const recent = { ms: DEFAULT_MAX_IDLE_MS, maxMs: DEFAULT_MAX_IDLE_MS };
  const healthy = taskHealth(waiting, minutes(30, 0), NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, recent);
  assert.deepEqual([healthy.status, healthy.noProgress], ["healthy", false]);
  // Nothing waits: an idle task is not stuck, however long since its last job.
  const none = taskHealth(IDLE, [], NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, idle);
  assert.deepEqual([none.status, none.noProgress], ["idle", false]);
  // Not known how long (no stream read): no verdict on it.
  const unknown = { ms: null, maxMs: DEFAULT_MAX_IDLE_MS };
  assert.equal(
    taskHealth(waiting, minutes(30, 0), NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, unknown).noProgress,
    false,
  );
});

Deno.test("taskHealth() tells noProgress whichever reason comes first", () => {
  const waiting = { ...IDLE, waiting: 12 };
  const idle = { ms: DEFAULT_MAX_IDLE_MS + 2 * 60_000, maxMs: DEFAULT_MAX_IDLE_MS };
  // Most jobs failed, then the workers went: the failures are the reason, and no job is taken.
  const failing = taskHealth(waiting, minutes(3, 7), NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, idle);
  assert.deepEqual([failing.status, failing.reason, failing.noProgress], [
    "critical",
    "70 % of jobs failed in the last 15 min",
    true,
  ]);
});

Deno.test("idleFor() counts from the last take, or from the oldest entry read when none was a take", () => {
  assert.equal(idleFor({ lastTakenAt: NOW - 90_000, coveredSince: NOW - HOUR }, NOW), 90_000);
  // 100 entries of dispatches and no take among them: none was taken since the oldest.
  assert.equal(idleFor({ lastTakenAt: null, coveredSince: NOW - 600_000 }, NOW), 600_000);
  assert.equal(idleFor({ lastTakenAt: null, coveredSince: null }, NOW), null);
  assert.equal(idleFor(undefined, NOW), null);
});

Deno.test("taskHealth() reads jobs running under live locks as busy workers, not missing ones", () => {
  const waiting = { ...IDLE, waiting: 2, active: 1 };
  const idle = { ms: DEFAULT_MAX_IDLE_MS + 60_000, maxMs: DEFAULT_MAX_IDLE_MS, running: 1 };
  assert.deepEqual(taskHealth(waiting, minutes(0, 0), NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, idle), {
    status: "warning",
    reason: "2 waiting, none taken for 6 min (over 5 min): workers are busy, 1 job running under " +
      "a live lock (or a singleton or concurrency key holds the rest)",
    failureRate: null,
    noProgress: false,
  });
  // Active jobs whose locks are gone are no worker at all.
  const orphaned = taskHealth(waiting, [], NO_HEADS, NOW, DEFAULT_MAX_WAIT_MS, {
    ...idle,
    running: 0,
  });
  assert.deepEqual([orphaned.status, orphaned.noProgress], ["critical", true]);
});

Deno.test("taskHealth() reads a job due longer ago than maxIdleMs with none taken as no progress: taskora promotes due jobs only when a worker asks", () => {
  const delayed = { ...IDLE, delayed: 1 };
  const heads = { ...NO_HEADS, nextDue: { id: "d2f0c1aa-77", at: NOW - 440_000 } };
  const idle = { ms: HOUR, maxMs: DEFAULT_MAX_IDLE_MS };
  assert.deepEqual(taskHealth(delayed, [], heads, NOW, DEFAULT_MAX_WAIT_MS, idle), {
    status: "critical",
    reason: "job d2f0c1aa due 7 min ago, none taken for 1 h (over 5 min): no worker is taking jobs",
    failureRate: null,
    noProgress: true,
  });
  // Due for less than the limit: a worker may yet come by.
  const soon = { ...NO_HEADS, nextDue: { id: "d2f0c1aa-77", at: NOW - 60_000 } };
  assert.equal(taskHealth(delayed, [], soon, NOW, DEFAULT_MAX_WAIT_MS, idle).noProgress, false);
});
