import assert from "node:assert/strict";
import type { TaskHealth } from "../../src/contract/health.ts";
import { withStalledJobs } from "../../src/contract/stalled_health.ts";

const healthy: TaskHealth = {
  status: "healthy",
  reason: "no failures in the last 15 min",
  failureRate: 0,
  noProgress: false,
};

Deno.test("withStalledJobs() warns of active jobs without a lock, before any other warning", () => {
  assert.deepEqual(withStalledJobs(healthy, { total: 2, checked: 5 }, 5), {
    ...healthy,
    status: "warning",
    reason: "2 active jobs hold no lock: no worker runs them",
  });
  const retrying: TaskHealth = { ...healthy, status: "warning", reason: "3 jobs retrying" };
  assert.equal(
    withStalledJobs(retrying, { total: 1, checked: 1 }, 1).reason,
    "1 active job holds no lock: no worker runs it",
  );
});

Deno.test("withStalledJobs() says when only the oldest active jobs were looked at", () => {
  assert.equal(
    withStalledJobs(healthy, { total: 4, checked: 100 }, 2500).reason,
    "4 of the 100 oldest active jobs hold no lock: no worker runs them",
  );
});

Deno.test("withStalledJobs() keeps a critical verdict, and any verdict with none stalled or none read", () => {
  const critical: TaskHealth = { ...healthy, status: "critical", reason: "60 % of jobs failed" };
  assert.equal(withStalledJobs(critical, { total: 3, checked: 3 }, 3), critical);
  assert.equal(withStalledJobs(healthy, { total: 0, checked: 3 }, 3), healthy);
  assert.equal(withStalledJobs(healthy, null, 3), healthy, "a source that reads no lock");
});
