import assert from "node:assert/strict";
import {
  backlogOf,
  finishedInMinute,
  forecastWindow,
  minuteOf,
  type WindowFigures,
} from "../../src/contract/forecast.ts";
import { NO_JOBS } from "../helpers/fixture.ts";

const MINUTE = 60_000;

/** A window from a sample taken at 0 with `then` left, `finished` in the minute after it, `backlog` left at `now`. */
function figures(then: number, finished: number, backlog: number, now: number): WindowFigures {
  return {
    minutes: 10,
    sample: { at: 0, backlog: then, finishedBefore: 0 },
    buckets: [{ timestamp: 0, completed: finished, failed: 0 }],
    backlog,
    now,
  };
}

Deno.test("forecastWindow() derives arrivals from what finished and how the backlog moved", () => {
  // 500 ten minutes ago, 300 finished since, 260 left: 60 arrived.
  const window = forecastWindow(figures(500, 300, 260, 10 * MINUTE));
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
  const growing = forecastWindow(figures(100, 100, 500, 10 * MINUTE));
  assert.equal(growing.arrivalRate, 50);
  assert.deepEqual(growing.outlook, { kind: "growing", perMinute: 40 });
  const steady = forecastWindow(figures(7, 0, 7, 10 * MINUTE));
  assert.deepEqual(steady.outlook, { kind: "steady" });
  const empty = forecastWindow({ ...figures(40, 40, 0, 60 * MINUTE), minutes: 60 });
  assert.deepEqual(empty.outlook, { kind: "empty" });
});

Deno.test("forecastWindow() never counts fewer than no arrivals (cancels leave the backlog uncounted)", () => {
  const window = forecastWindow(figures(100, 0, 40, 10 * MINUTE));
  assert.equal(window.arrived, 0);
  assert.deepEqual(window.outlook, { kind: "drains", inMs: Math.round((40 / 6) * MINUTE) });
});

Deno.test("forecastWindow() runs from the sample's time and counts only what finished after it", () => {
  // Sampled 40 s into minute 5, when that minute had finished 12 jobs.
  const at = 5 * MINUTE + 40_000;
  const window = forecastWindow({
    minutes: 10,
    sample: { at, backlog: 90, finishedBefore: 12 },
    buckets: [
      { timestamp: 4 * MINUTE, completed: 50, failed: 0 }, // before the sample's minute
      { timestamp: 5 * MINUTE, completed: 15, failed: 2 }, // 5 of them after the sample
      { timestamp: 6 * MINUTE, completed: 10, failed: 5 },
    ],
    backlog: 80,
    now: at + 10 * MINUTE,
  });
  assert.equal(window.from, at);
  assert.equal(window.finished, 20);
  assert.equal(window.arrived, 10);
  assert.equal(window.completionRate, 2);
  assert.equal(window.arrivalRate, 1);
  assert.deepEqual(window.outlook, { kind: "drains", inMs: 80 * MINUTE });
});

Deno.test("backlogOf() counts the jobs yet to finish but those due after the horizon; minuteOf() the minute a time falls in", () => {
  const stats = { ...NO_JOBS, waiting: 3, active: 2, delayed: 4, retrying: 1, failed: 9 };
  assert.equal(backlogOf(stats, 0), 10);
  assert.equal(backlogOf(stats, 4), 6);
  // Read apart from the counts, more due later than are delayed never takes from the rest.
  assert.equal(backlogOf(stats, 9), 5);
  assert.equal(minuteOf(5 * MINUTE + 59_999), 5 * MINUTE);
});

Deno.test("finishedInMinute() reads the completed and failed counters of the minute a time falls in", () => {
  const buckets = [
    { timestamp: 0, completed: 7, failed: 1 },
    { timestamp: MINUTE, completed: 3, failed: 2 },
  ];
  assert.equal(finishedInMinute(buckets, MINUTE + 30_000), 5);
  assert.equal(finishedInMinute(buckets, 2 * MINUTE), 0);
});
