/**
 * The contract for the runs the board dispatches itself, over each source
 * and the store it brings: taskora keeps only a schedule's last run, so the
 * board keeps its own "Run now" runs per schedule in its `BoardStore`
 * (newest first, capped) and shows them with each job's state now, read
 * from the source (`getJobStates`).
 */

import assert from "node:assert/strict";
import { BoardRuns } from "../../src/schedules/board_runs.ts";
import { pairedStore } from "../../src/store/pairing.ts";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

/** The fixture's schedules, both running task `report`. */
const HEARTBEAT = { name: "heartbeat", task: "report" };
const BOTH = [HEARTBEAT, { name: "nightly-report", task: "report" }];

/** Registers the board-runs contract for the source `seed` makes. */
export function boardRunsContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: the board's runs of a schedule come back newest first, capped, with each job's state`, async () => {
    const { source, close } = await seed(dump);
    const store = pairedStore(source)!;
    const runs = new BoardRuns(source, store);
    try {
      assert.deepEqual(
        await runs.list(BOTH),
        new Map([
          ["heartbeat", []],
          ["nightly-report", []],
        ]),
      );
      const { jobId } = await source.triggerSchedule("heartbeat");
      await store.recordBoardRun("heartbeat", { jobId: "gone-1", at: 1000, by: "board" }, 3);
      await store.recordBoardRun("heartbeat", { jobId: "gone-2", at: 2000, by: "board" }, 3);
      await store.recordBoardRun("heartbeat", { jobId: "gone-3", at: 3000, by: "board" }, 3);
      await store.recordBoardRun("heartbeat", { jobId, at: 4000, by: "board" }, 3);

      const listed = await runs.list(BOTH);
      // A gone job's state may be one trusted from an earlier read, with its time (Redis).
      const withoutReadTimes = listed.get("heartbeat")?.map(({ stateAt: _, ...run }) => run);
      assert.deepEqual(withoutReadTimes, [
        { jobId, at: 4000, by: "board", state: "waiting" },
        { jobId: "gone-3", at: 3000, by: "board", state: null },
        { jobId: "gone-2", at: 2000, by: "board", state: null },
      ]);
      assert.deepEqual(listed.get("nightly-report"), [], "each schedule its own");
      assert.equal((await store.listBoardRuns(["heartbeat"], 1)).get("heartbeat")?.length, 1);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a schedule's runs are listed by when they ran, whichever was noted last`, async () => {
    const { source, close } = await seed(dump);
    const store = pairedStore(source)!;
    const runs = new BoardRuns(source, store);
    try {
      // A "Run now" dispatched at 2000 whose note lands after the leader's look noted the
      // scheduler's run of 3000 (a loaded machine, in schedule_all_runs_test).
      await store.recordBoardRun("heartbeat", { jobId: "s1", at: 1000, by: "scheduler" }, 10);
      await store.recordBoardRun("heartbeat", { jobId: "s3", at: 3000, by: "scheduler" }, 10);
      await store.recordBoardRun("heartbeat", { jobId: "b2", at: 2000, by: "board" }, 10);
      await store.recordBoardRun("heartbeat", { jobId: "b4", at: 4000, by: "board" }, 10);
      await store.recordBoardRun("heartbeat", { jobId: "b0", at: 500, by: "board" }, 10);
      const page = await runs.page(HEARTBEAT, 0, 10, null);
      assert.deepEqual(page.runs.map(({ jobId }) => jobId), ["b4", "s3", "b2", "s1", "b0"]);
      assert.equal(page.total, 5);
      const second = await runs.page(HEARTBEAT, 1, 2, null);
      assert.deepEqual(second.runs.map(({ jobId }) => jobId), ["s3", "b2"]);
      const listed = (await runs.list([HEARTBEAT])).get("heartbeat")!;
      assert.deepEqual(listed.map(({ jobId }) => jobId), ["b4", "b2", "b0"], "the board's own");
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the job states of the board's runs come in the order asked, null for one gone`, async () => {
    const { source, close } = await seed(dump);
    try {
      const { jobId } = await source.triggerSchedule("heartbeat");
      const read = await source.getJobStates!([
        { id: "gone", task: "report" },
        { id: jobId, task: "report" },
        { id: jobId, task: "no-such-task" },
      ]);
      assert.deepEqual(read.map(({ state }) => state), [null, "waiting", null]);
      assert.equal(read[1].readAt, undefined, "a state not finished is read for each answer");
      assert.deepEqual(await source.getJobStates!([]), []);
    } finally {
      await close();
    }
  });
}
