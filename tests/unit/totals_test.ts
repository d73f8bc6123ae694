import assert from "node:assert/strict";
import type { QueueStats } from "../../src/contract/states.ts";
import { totalsOf } from "../../src/contract/totals.ts";
import { NO_JOBS } from "../helpers/fixture.ts";

Deno.test("totalsOf() adds up every state of every task", () => {
  const mail: QueueStats = {
    waiting: 1,
    active: 2,
    delayed: 3,
    retrying: 0,
    failed: 4,
    completed: 5,
    cancelled: 6,
    expired: 7,
  };
  const resize: QueueStats = { ...NO_JOBS, waiting: 10, completed: 100, expired: 1 };
  assert.deepEqual(totalsOf([mail, resize]), {
    waiting: 11,
    active: 2,
    delayed: 3,
    failed: 4,
    completed: 105,
    cancelled: 6,
    expired: 8,
  });
});

Deno.test("totalsOf() counts retrying jobs as delayed, as taskora's own stats do", () => {
  const totals = totalsOf([{ ...NO_JOBS, delayed: 2, retrying: 3 }]);
  assert.equal(totals.delayed, 5);
  assert.equal("retrying" in totals, false);
});

Deno.test("totalsOf() of no task is all zeros, and takes any iterable (a Map's values)", () => {
  const { retrying: _, ...zeros } = NO_JOBS;
  assert.deepEqual(totalsOf([]), zeros);
  const byTask = new Map([["a", { ...NO_JOBS, failed: 1 }], ["b", { ...NO_JOBS, failed: 2 }]]);
  assert.equal(totalsOf(byTask.values()).failed, 3);
});
