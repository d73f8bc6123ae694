import assert from "node:assert/strict";
import { backlogOf, forecastWindow, minuteOf } from "../../src/contract/forecast.ts";
import { NO_JOBS } from "../helpers/fixture.ts";

const MINUTE = 60_000;

Deno.test("forecastWindow() derives arrivals from what finished and how the backlog moved", () => {
  // 500 ten minutes ago, 300 finished since, 260 left: 60 arrived.
  const window = forecastWindow({
    minutes: 10,
    from: 0,
    backlogThen: 500,
    finished: 300,
    backlog: 260,
    now: 10 * MINUTE,
  });
  assert.deepEqual(window, {
    minutes: 10,
    from: 0,
    backlogThen: 500,
    finished: 300,
    arrived: 60,
    completionRate: 30,
    arrivalRate: 6,
    // 260 left, shrinking by 24 a minute: about 10.8 min.
    outlook: { kind: "drains", inMs: Math.round((260 / 24) * MINUTE) },
  });
});

Deno.test("forecastWindow() says a backlog grows by its net rate, is steady, or is empty", () => {
  const growing = forecastWindow({
    minutes: 10,
    from: 0,
    backlogThen: 100,
    finished: 100,
    backlog: 500,
    now: 10 * MINUTE,
  });
  assert.equal(growing.arrivalRate, 50);
  assert.deepEqual(growing.outlook, { kind: "growing", perMinute: 40 });
  const steady = forecastWindow({
    minutes: 10,
    from: 0,
    backlogThen: 7,
    finished: 0,
    backlog: 7,
    now: 10 * MINUTE,
  });
  assert.deepEqual(steady.outlook, { kind: "steady" });
  const empty = forecastWindow({
    minutes: 60,
    from: 0,
    backlogThen: 40,
    finished: 40,
    backlog: 0,
    now: 60 * MINUTE,
  });
  assert.deepEqual(empty.outlook, { kind: "empty" });
});

Deno.test("forecastWindow() never counts fewer than no arrivals (cancels leave the backlog uncounted)", () => {
  const window = forecastWindow({
    minutes: 10,
    from: 0,
    backlogThen: 100,
    finished: 0,
    backlog: 40,
    now: 10 * MINUTE,
  });
  assert.equal(window.arrived, 0);
  assert.deepEqual(window.outlook, { kind: "drains", inMs: Math.round((40 / 6) * MINUTE) });
});

Deno.test("backlogOf() counts the jobs yet to finish; minuteOf() the minute a time falls in", () => {
  assert.equal(
    backlogOf({ ...NO_JOBS, waiting: 3, active: 2, delayed: 4, retrying: 1, failed: 9 }),
    10,
  );
  assert.equal(minuteOf(5 * MINUTE + 59_999), 5 * MINUTE);
});
