import assert from "node:assert/strict";
import { timelineOf } from "../../src/api/present.ts";
import type { JobRecord } from "../../src/source/types.ts";

function job(fields: Partial<JobRecord>): JobRecord {
  return {
    id: "j",
    task: "t",
    state: "waiting",
    data: null,
    result: null,
    error: null,
    progress: null,
    attempt: 1,
    maxAttempts: 1,
    version: 1,
    priority: 0,
    createdAt: 100,
    processedAt: null,
    finishedAt: null,
    runAt: null,
    cancelledAt: null,
    cancelReason: null,
    expireAt: null,
    stalledCount: 0,
    workflow: null,
    ...fields,
  };
}

Deno.test("timelineOf() a waiting job is one step", () => {
  assert.deepEqual(timelineOf(job({})), [{ state: "waiting", at: 100 }]);
});

Deno.test("timelineOf() a finished job: waiting, active, then its final state", () => {
  assert.deepEqual(
    timelineOf(job({ state: "failed", processedAt: 150, finishedAt: 180 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "failed", at: 180 }],
  );
});

Deno.test("timelineOf() a retrying job ends with when it runs again", () => {
  assert.deepEqual(
    timelineOf(job({ state: "retrying", processedAt: 150, runAt: 900 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "retrying", at: 900 }],
  );
});

Deno.test("timelineOf() an active job asked to cancel shows when it was asked", () => {
  assert.deepEqual(
    timelineOf(job({ state: "active", processedAt: 150, cancelledAt: 170 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "cancelling", at: 170 }],
  );
});

Deno.test("timelineOf() sorts by time and ignores a finish time of a job not finished", () => {
  assert.deepEqual(
    timelineOf(job({ state: "delayed", runAt: 50, finishedAt: 999 })),
    [{ state: "delayed", at: 50 }, { state: "waiting", at: 100 }],
  );
});
