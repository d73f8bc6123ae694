/**
 * The bulk contract: `countBulk` and `bulkStep` (retry, cancel, promote,
 * delete; by ids or by a state's members) act and refuse the same on every
 * source. Each test seeds a fresh source from the fixture keyspace.
 */

import assert from "node:assert/strict";
import type { BulkStep, JobState } from "../../src/source/types.ts";
import { readFixture } from "../helpers/fixture.ts";
import { count, ids } from "./mutation_contract.ts";
import { type Seed, seededContract, withQueuedBilling } from "./source_contract.ts";

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const COMPLETED_EMAIL = "d2d954a9-6cc5-4bb4-b341-01e347a69342";
const CANCELLED_EMAIL = "cfa125ab-710e-4e8f-8ca0-2f1fe8870b15";
const ACTIVE_TRANSCODE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
const UNKNOWN_JOB = "00000000-0000-0000-0000-000000000000";

/** The first `limit` members of a state's list or set, acting on at most `most`. */
function firstBatch(state: JobState, limit = 100, most = 100): BulkStep {
  return { state, offset: 0, limit, most };
}

/** Registers the bulk contract tests for one source. */
export function bulkContract(name: string, seed: Seed): void {
  const dump = readFixture();
  const queued = withQueuedBilling(dump);

  const contract = seededContract(`${name}: bulk `, seed, dump);

  contract("counts a state's jobs, and the named jobs an action takes", async (s) => {
    assert.equal(await s.countBulk!("retry", { task: "send-email", state: "failed" }), 5);
    const named = { task: "send-email", ids: [FAILED_EMAIL, CANCELLED_EMAIL, COMPLETED_EMAIL] };
    assert.equal(await s.countBulk!("retry", { ...named, ids: [...named.ids, UNKNOWN_JOB] }), 2);
    assert.equal(await s.countBulk!("delete", named), 3);
    assert.equal(await s.countBulk!("cancel", named), 0);
  });

  contract("retries named jobs and reports those it skipped, with their state", async (s) => {
    const result = await s.bulkStep!("send-email", "retry", {
      ids: [FAILED_EMAIL, COMPLETED_EMAIL, UNKNOWN_JOB, CANCELLED_EMAIL],
    });
    assert.deepEqual(result, {
      examined: 4,
      kept: 0,
      signalled: 0,
      done: [{ id: FAILED_EMAIL, from: "failed" }, { id: CANCELLED_EMAIL, from: "cancelled" }],
      skipped: [{ id: COMPLETED_EMAIL, state: "completed" }, { id: UNKNOWN_JOB, state: null }],
    });
    assert.deepEqual(
      (await ids(s, "send-email", "waiting")).sort(),
      [
        CANCELLED_EMAIL,
        FAILED_EMAIL,
      ].sort(),
    );
    assert.equal(await count(s, "send-email", "failed"), 4);
    assert.equal(await count(s, "send-email", "cancelled"), 0);
    const job = await s.getJob(FAILED_EMAIL);
    assert.equal(job?.attempt, 1);
    assert.equal(job?.error, null);
  });

  contract("retries a whole state, step by step from an offset", async (s) => {
    const first = await s.bulkStep!("send-email", "retry", firstBatch("failed", 3, 100));
    assert.equal(first.examined, 3);
    assert.equal(first.done.length, 3);
    assert.equal(first.kept, 0);
    const rest = await s.bulkStep!("send-email", "retry", firstBatch("failed", 3, 100));
    assert.equal(rest.examined, 2, "the end of the set: fewer than asked");
    assert.equal(await count(s, "send-email", "failed"), 0);
    assert.equal(await count(s, "send-email", "waiting"), 5);
  });

  contract("acts on at most `most` jobs of a step and looks no further", async (s) => {
    const result = await s.bulkStep!("send-email", "retry", firstBatch("failed", 100, 2));
    assert.equal(result.examined, 2);
    assert.equal(result.done.length, 2);
    assert.equal(await count(s, "send-email", "failed"), 3);
  });

  contract("counts delayed and retrying jobs apart, exactly, from their hashes", async (s) => {
    assert.equal(await s.countBulk!("promote", { task: "billing", state: "retrying" }), 1);
    assert.equal(await s.countBulk!("promote", { task: "billing", state: "delayed" }), 1);
    assert.equal(await s.countBulk!("cancel", { task: "billing", state: "retrying" }), 1);
  }, queued);

  contract("promotes retrying jobs only, passing delayed ones over in place", async (s) => {
    const result = await s.bulkStep!("billing", "promote", firstBatch("retrying"));
    assert.deepEqual(result, {
      examined: 2,
      kept: 1,
      signalled: 0,
      done: [{ id: "r1", from: "retrying" }],
      skipped: [],
    });
    const job = await s.getJob("r1");
    assert.equal(job?.state, "waiting");
    assert.equal(job?.attempt, 2, "a promotion keeps the attempt");
    assert.ok((await ids(s, "billing", "waiting")).includes("r1"));
    assert.deepEqual(await ids(s, "billing", "delayed"), ["d1"]);
    assert.equal(await count(s, "billing", "retrying"), 0);
  }, queued);

  contract("promotes a named delayed job to the wait list and skips a waiting one", async (s) => {
    const result = await s.bulkStep!("billing", "promote", { ids: ["d1", "w1"] });
    assert.deepEqual(result.done, [{ id: "d1", from: "delayed" }]);
    assert.deepEqual(result.skipped, [{ id: "w1", state: "waiting" }]);
    assert.equal(await count(s, "billing", "waiting"), 6);
    assert.equal(await count(s, "billing", "delayed"), 0);
  }, queued);

  contract("cancels every waiting job, list and prioritized set alike", async (s) => {
    const result = await s.bulkStep!("billing", "cancel", firstBatch("waiting"), "drain");
    assert.equal(result.done.length, 5);
    assert.equal(await count(s, "billing", "waiting"), 0);
    assert.equal(await count(s, "billing", "cancelled"), 5);
    assert.equal((await s.getJob("p-high"))?.cancelReason, "drain");
  }, queued);

  contract("signals an active job's worker and keeps it in place", async (s) => {
    const result = await s.bulkStep!("transcode", "cancel", firstBatch("active"));
    assert.deepEqual(result, {
      examined: 1,
      kept: 1,
      signalled: 1,
      done: [{ id: ACTIVE_TRANSCODE, from: "active" }],
      skipped: [],
    });
    assert.equal(await count(s, "transcode", "active"), 1);
  });

  contract("deletes finished jobs with their logs, and skips unfinished ones", async (s) => {
    const result = await s.bulkStep!("send-email", "delete", {
      ids: [COMPLETED_EMAIL, FAILED_EMAIL, "5a69f8cc-4a71-423d-8cc7-3680d5198d0f"],
    });
    assert.equal(result.done.length, 2);
    assert.deepEqual(result.skipped, [{
      id: "5a69f8cc-4a71-423d-8cc7-3680d5198d0f",
      state: "delayed",
    }]);
    assert.equal(await s.getJob(COMPLETED_EMAIL), null);
    assert.equal(await s.getJob(FAILED_EMAIL), null);
    assert.equal(await count(s, "send-email", "completed"), 9);
    assert.equal(await count(s, "send-email", "failed"), 4);
  });

  contract(
    "leaves a job that finished again after finishedBy: a worker ran it since",
    async (s) => {
      const finished = (await s.getJob(FAILED_EMAIL))!.finishedAt!;
      const since = finished - 1;
      const named = await s.bulkStep!("send-email", "retry", {
        ids: [FAILED_EMAIL],
        finishedBy: since,
      });
      assert.deepEqual(named.done, []);
      assert.deepEqual(named.skipped, [{ id: FAILED_EMAIL, state: "failed" }]);
      const removed = await s.bulkStep!("send-email", "delete", {
        ids: [FAILED_EMAIL],
        finishedBy: since,
      });
      assert.deepEqual(removed.done, []);
      const state = await s.bulkStep!("send-email", "retry", {
        ...firstBatch("failed"),
        finishedBy: since,
      });
      assert.ok(!state.done.some((job) => job.id === FAILED_EMAIL), "passed over in the state too");
      assert.equal(state.done.length + state.kept, 5, "it stays in place, kept");
      assert.equal((await s.getJob(FAILED_EMAIL))?.state, "failed");
      const then = await s.bulkStep!("send-email", "retry", {
        ids: [FAILED_EMAIL],
        finishedBy: finished,
      });
      assert.deepEqual(
        then.done,
        [{ id: FAILED_EMAIL, from: "failed" }],
        "finished by then: acted on",
      );
    },
  );

  contract("refuses an unknown task (TASK_NOT_FOUND)", async (s) => {
    await assert.rejects(
      s.bulkStep!("ghost", "retry", { ids: [FAILED_EMAIL] }),
      (error: Error & { code?: string }) => error.code === "TASK_NOT_FOUND",
    );
    await assert.rejects(
      s.countBulk!("retry", { task: "ghost", state: "failed" }),
      (error: Error & { code?: string }) => error.code === "TASK_NOT_FOUND",
    );
  });
}
