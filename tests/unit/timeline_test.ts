import assert from "node:assert/strict";
import type { JobTimestamps } from "../../src/contract/jobs.ts";
import { timelineOf } from "../../src/contract/timeline.ts";

/** A job dispatched at 100 and nothing since, with `times` on top. */
function times(times: Partial<JobTimestamps>): JobTimestamps {
  return {
    created: 100,
    processed: null,
    finished: null,
    runAt: null,
    cancelled: null,
    expireAt: null,
    ...times,
  };
}

Deno.test("timelineOf() a waiting job is one step", () => {
  assert.deepEqual(timelineOf("waiting", times({})), [{ state: "waiting", at: 100 }]);
});

Deno.test("timelineOf() a finished job: waiting, active, then its final state", () => {
  assert.deepEqual(
    timelineOf("failed", times({ processed: 150, finished: 180 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "failed", at: 180 }],
  );
});

Deno.test("timelineOf() a retrying job ends with when it runs again", () => {
  assert.deepEqual(
    timelineOf("retrying", times({ processed: 150, runAt: 900 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "retrying", at: 900 }],
  );
});

Deno.test("timelineOf() an active job asked to cancel shows when it was asked", () => {
  assert.deepEqual(
    timelineOf("active", times({ processed: 150, cancelled: 170 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "cancelling", at: 170 }],
  );
});

Deno.test("timelineOf() sorts by time and ignores a finish time of a job not finished", () => {
  assert.deepEqual(
    timelineOf("delayed", times({ runAt: 50, finished: 999 })),
    [{ state: "delayed", at: 50 }, { state: "waiting", at: 100 }],
  );
});

Deno.test("timelineOf() a run-at time counts only while the job waits to run again", () => {
  assert.deepEqual(
    timelineOf("completed", times({ processed: 150, finished: 180, runAt: 120 })),
    [{ state: "waiting", at: 100 }, { state: "active", at: 150 }, { state: "completed", at: 180 }],
  );
});
