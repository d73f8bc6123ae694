/** Each rule kind measured from a snapshot of figures: what it reads, and when it is breached. */

import assert from "node:assert/strict";
import { type AlertSnapshot, measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import type { AlertRule } from "../../src/contract/alerts.ts";
import { ruleOf, snapshotOf, taskFigures } from "../helpers/alert_snapshot.ts";

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const MINUTE = 60_000;

/** `[subject, figure, breached]` of each instance. */
function measured(r: AlertRule, s: AlertSnapshot, shapes = new KnownShapes()) {
  return measure(r, s, shapes, NOW)?.map((m) => [m.subject, m.figure, m.breached]) ?? null;
}

Deno.test("failed: above the threshold, per task in scope", () => {
  const s = snapshotOf({
    mail: taskFigures({ failed: 6 }),
    pay: taskFigures({ failed: 5 }),
    sms: taskFigures(),
  });
  assert.deepEqual(measured(ruleOf("failed", 5), s), [
    ["mail", 6, true],
    ["pay", 5, false],
    ["sms", 0, false],
  ]);
  assert.deepEqual(measured(ruleOf("failed", 5, { tasks: ["pay", "gone"] }), s), [[
    "pay",
    5,
    false,
  ]]);
});

Deno.test("failureRate: failed among finished over the window, with the fewest finished", () => {
  const throughput = [
    { timestamp: NOW - 20 * MINUTE, completed: 0, failed: 50 }, // outside a 15 min window
    { timestamp: NOW - 10 * MINUTE, completed: 15, failed: 3 },
    { timestamp: NOW - MINUTE, completed: 1, failed: 1 },
  ];
  const s = snapshotOf({ mail: taskFigures({}, { throughput }) });
  const rate = (minFinished: number) =>
    ruleOf("failureRate", 10, { windowMs: 15 * MINUTE, minFinished });
  assert.deepEqual(measured(rate(20), s), [["mail", 20, true]]);
  assert.deepEqual(measured(rate(21), s), [["mail", 20, false]], "too few finished");
  assert.deepEqual(
    measured(ruleOf("failureRate", 20, { windowMs: 15 * MINUTE, minFinished: 1 }), s),
    [
      ["mail", 20, false],
    ],
  );
});

Deno.test("failureRate: the minute the window starts in counts, so no failure inside it is left out", () => {
  const now = NOW + 26_000; // the window of 15 min starts at 11:45:26
  const throughput = [
    { timestamp: NOW - 16 * MINUTE, completed: 0, failed: 99 }, // 11:44: ended before it
    { timestamp: NOW - 15 * MINUTE, completed: 10, failed: 10 }, // 11:45: partly inside
    { timestamp: NOW, completed: 10, failed: 0 },
  ];
  const s = snapshotOf({ mail: taskFigures({}, { throughput }) });
  const rule = ruleOf("failureRate", 30, { windowMs: 15 * MINUTE, minFinished: 1 });
  assert.deepEqual(
    measure(rule, s, new KnownShapes(), now)?.map((m) => [m.figure, m.breached]),
    [[33.33, true]],
  );
});

Deno.test("backlog: the waiting count", () => {
  const s = snapshotOf({ mail: taskFigures({ waiting: 101 }) });
  assert.deepEqual(measured(ruleOf("backlog", 100), s), [["mail", 101, true]]);
});

Deno.test("oldestWaiting: how long the oldest waiting job has waited", () => {
  const heads = {
    oldestWaiting: { id: "j1", since: NOW - 11 * MINUTE },
    oldestActive: null,
    nextDue: null,
  };
  const s = snapshotOf({ mail: taskFigures({ waiting: 1 }, { heads }), sms: taskFigures() });
  assert.deepEqual(measured(ruleOf("oldestWaiting", 10 * MINUTE), s), [
    ["mail", 11 * MINUTE, true],
    ["sms", 0, false],
  ]);
});

Deno.test("overdue: how far past its run-at the delayed job due first is", () => {
  const heads = {
    oldestWaiting: null,
    oldestActive: null,
    nextDue: { id: "j1", at: NOW - 2 * MINUTE },
  };
  const later = {
    oldestWaiting: null,
    oldestActive: null,
    nextDue: { id: "j2", at: NOW + MINUTE },
  };
  const s = snapshotOf({
    mail: taskFigures({ delayed: 1 }, { heads }),
    sms: taskFigures({ delayed: 1 }, { heads: later }),
  });
  assert.deepEqual(measured(ruleOf("overdue", MINUTE), s), [
    ["mail", 2 * MINUTE, true],
    ["sms", 0, false],
  ]);
});

Deno.test("stalled: the stalled set is not empty", () => {
  const s = snapshotOf({ mail: taskFigures({}, { stalled: 1 }), sms: taskFigures() });
  assert.deepEqual(measured(ruleOf("stalled", 0), s), [["mail", 1, true], ["sms", 0, false]]);
});

Deno.test("newErrorGroup: a shape unseen before appears among the failed jobs", () => {
  const shapes = new KnownShapes();
  const r = ruleOf("newErrorGroup", 0);
  const before = snapshotOf({ mail: taskFigures({}, { errorShapes: ["timeout after <n> ms"] }) });
  assert.deepEqual(measure(r, before, shapes, NOW - MINUTE)?.map((m) => m.breached), [false]);
  const after = snapshotOf({
    mail: taskFigures({}, { errorShapes: ["timeout after <n> ms", "quota"] }),
  });
  assert.deepEqual(measured(r, after, shapes), [["mail", 1, true]]);
});

Deno.test("scheduleMissed: a due run past its grace with no new run, per schedule", () => {
  const schedules = [
    {
      name: "nightly",
      task: "mail",
      nextRun: NOW - 2 * MINUTE,
      lastRun: NOW - 86_400_000,
      paused: false,
    },
    { name: "hourly", task: "mail", nextRun: NOW - 30_000, lastRun: null, paused: false },
    { name: "paused", task: "mail", nextRun: null, lastRun: null, paused: true },
    { name: "ran", task: "mail", nextRun: NOW - 5 * MINUTE, lastRun: NOW - MINUTE, paused: false },
    { name: "other", task: "sms", nextRun: NOW - 5 * MINUTE, lastRun: null, paused: false },
  ];
  const s = snapshotOf({}, { schedules });
  assert.deepEqual(measured(ruleOf("scheduleMissed", MINUTE, { tasks: ["mail"] }), s), [
    ["nightly", 2 * MINUTE, true],
    ["hourly", 30_000, false],
    ["paused", 0, false],
    ["ran", 0, false],
  ]);
  assert.equal(
    measure(ruleOf("scheduleMissed", MINUTE), s, new KnownShapes(), NOW)![0].task,
    "mail",
  );
});

Deno.test("noProgress: jobs wait and none was taken since, counted from the later of both", () => {
  const waitingSince = (since: number) => ({
    oldestWaiting: { id: "j", since },
    oldestActive: null,
    nextDue: null,
  });
  const s = snapshotOf({
    stuck: taskFigures({ waiting: 3 }, {
      heads: waitingSince(NOW - 20 * MINUTE),
      lastTakenAt: NOW - 30 * MINUTE,
    }),
    fresh: taskFigures({ waiting: 1 }, {
      heads: waitingSince(NOW - MINUTE),
      lastTakenAt: NOW - 60 * MINUTE,
    }),
    moving: taskFigures({ waiting: 3 }, {
      heads: waitingSince(NOW - 20 * MINUTE),
      lastTakenAt: NOW - 1000,
    }),
    idle: taskFigures({}, { lastTakenAt: NOW - 60 * MINUTE }),
  });
  assert.deepEqual(measured(ruleOf("noProgress", 10 * MINUTE), s), [
    ["stuck", 20 * MINUTE, true],
    ["fresh", MINUTE, false],
    ["moving", 1000, false],
    ["idle", 0, false],
  ]);
});

Deno.test("redis: unreachable, or memory above the share of maxmemory", () => {
  const at = (redis: AlertSnapshot["redis"]) =>
    measured(ruleOf("redis", 90), snapshotOf({}, { redis }));
  assert.deepEqual(at({ connected: true, usedMemoryBytes: 95, maxMemoryBytes: 100 }), [[
    null,
    95,
    true,
  ]]);
  assert.deepEqual(at({ connected: true, usedMemoryBytes: 90, maxMemoryBytes: 100 }), [[
    null,
    90,
    false,
  ]]);
  assert.deepEqual(at({ connected: true, usedMemoryBytes: 95, maxMemoryBytes: null }), [[
    null,
    null,
    false,
  ]]);
  assert.deepEqual(at({ connected: false, usedMemoryBytes: 0, maxMemoryBytes: null }), [[
    null,
    null,
    true,
  ]]);
});

Deno.test("migrationLock: held for longer than the threshold", () => {
  const at = (heldSince: number | null) =>
    measured(ruleOf("migrationLock", 5 * MINUTE), snapshotOf({}, { migrationLock: { heldSince } }));
  assert.deepEqual(at(NOW - 6 * MINUTE), [[null, 6 * MINUTE, true]]);
  assert.deepEqual(at(NOW - MINUTE), [[null, MINUTE, false]]);
  assert.deepEqual(at(null), [[null, 0, false]]);
});

Deno.test("what the store could not tell is not measured: no state moves on it", () => {
  const down = snapshotOf({}, { tasks: null, schedules: null, migrationLock: null });
  for (const kind of ["failed", "backlog", "scheduleMissed", "migrationLock"] as const) {
    assert.equal(measure(ruleOf(kind, 1000), down, new KnownShapes(), NOW), null, kind);
  }
});
