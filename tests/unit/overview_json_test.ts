/**
 * The overview's JSON text from the live state (`src/http/overview_json.ts`):
 * what `JSON.stringify` writes, byte for byte, with each task's counts,
 * verdict and hour of rate written once while they are the same objects
 * (the live state's rows, shared by every overview until a pass replaces
 * them), and what moves with the clock written at each answer.
 */

import assert from "node:assert/strict";
import type { OverviewResponse, OverviewTask } from "../../src/contract/overview.ts";
import { overviewJson } from "../../src/http/overview_json.ts";

const STATS = {
  waiting: 3,
  active: 1,
  delayed: 0,
  retrying: 2,
  completed: 40,
  failed: 1,
  cancelled: 0,
  expired: 0,
};

function taskOf(name: string, overrides: Partial<OverviewTask> = {}): OverviewTask {
  return {
    name,
    stats: { ...STATS },
    retryingAsOf: null,
    health: {
      status: "warning",
      reason: 'a "quoted" reason\n',
      failureRate: 0.5,
      noProgress: false,
    },
    latency: {
      oldestWaiting: { id: "j-1", since: 1_000, ageMs: 500 },
      mostOverdue: null,
    },
    rate: { from: 0, bucketMs: 60_000, completed: [1, 2, 3], failed: [0, 1, 0] },
    ...overrides,
  };
}

function bodyOf(tasks: OverviewTask[]): OverviewResponse {
  return {
    tasks,
    matched: tasks.length,
    totals: { ...STATS },
    healthCounts: { critical: 0, warning: tasks.length, healthy: 0, idle: 0 },
    asOf: 1_500,
    groups: [{
      prefix: "email.",
      tasks: 1,
      stats: { ...STATS },
      health: { critical: 0, warning: 1, healthy: 0, idle: 0 },
    }],
    redis: { version: "7.2.4", usedMemory: "1.00M", uptime: 60, connected: true },
    uptime: 2_000,
  };
}

Deno.test("overviewJson writes what JSON.stringify writes", () => {
  const samples = [
    bodyOf([]),
    bodyOf([taskOf("email.send"), taskOf('odd "name" ☃', { retryingAsOf: 1_234 })]),
  ];
  for (const body of samples) assert.equal(overviewJson(body), JSON.stringify(body));
});

Deno.test("a task's counts, verdict and rate are written once while they are the same objects", () => {
  const written = { stats: 0, health: 0, rate: 0 };
  const counted = <T extends object>(part: keyof typeof written, value: T): T =>
    ({ ...value, toJSON: () => (written[part]++, value) }) as T;
  const row = taskOf("email.send");
  const stats = counted("stats", row.stats);
  const health = counted("health", row.health);
  const rate = counted("rate", row.rate);
  // Two answers of one live state: each its own task objects and latency, the row's parts shared.
  const first = bodyOf([{ ...row, stats, health, rate }]);
  const later = { ...row, stats, health, rate, latency: { ...row.latency, mostOverdue: null } };
  const second = { ...bodyOf([later]), uptime: 3_000 };
  assert.equal(JSON.parse(overviewJson(first)).tasks[0].rate.completed.length, 3);
  assert.equal(overviewJson(second), JSON.stringify(second));
  assert.deepEqual(
    written,
    { stats: 2, health: 2, rate: 2 },
    "once by overviewJson, once by the check",
  );
});
