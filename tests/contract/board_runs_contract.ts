/**
 * The TaskSource contract for the runs the board dispatches itself: taskora
 * keeps only a schedule's last run, so the board keeps its own "Run now"
 * runs per schedule (newest first, capped), answers them with each job's
 * state now, and forgets them with the schedule.
 */

import assert from "node:assert/strict";
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
    try {
      assert.deepEqual(
        await source.listBoardRuns!(BOTH, 5),
        new Map([
          ["heartbeat", []],
          ["nightly-report", []],
        ]),
      );
      const { jobId } = await source.triggerSchedule("heartbeat");
      await source.recordBoardRun!("heartbeat", { jobId: "gone-1", at: 1000 }, 3);
      await source.recordBoardRun!("heartbeat", { jobId: "gone-2", at: 2000 }, 3);
      await source.recordBoardRun!("heartbeat", { jobId: "gone-3", at: 3000 }, 3);
      await source.recordBoardRun!("heartbeat", { jobId, at: 4000 }, 3);

      const runs = await source.listBoardRuns!(BOTH, 5);
      assert.deepEqual(runs.get("heartbeat"), [
        { jobId, at: 4000, state: "waiting" },
        { jobId: "gone-3", at: 3000, state: null },
        { jobId: "gone-2", at: 2000, state: null },
      ]);
      assert.deepEqual(runs.get("nightly-report"), [], "each schedule its own");
      assert.equal((await source.listBoardRuns!([HEARTBEAT], 1)).get("heartbeat")?.length, 1);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a deleted schedule's board runs are forgotten with it`, async () => {
    const { source, close } = await seed(dump);
    try {
      await source.recordBoardRun!("heartbeat", { jobId: "j1", at: 1000 }, 10);
      await source.removeSchedule("heartbeat");
      assert.deepEqual(
        await source.listBoardRuns!([HEARTBEAT], 10),
        new Map([["heartbeat", []]]),
      );
    } finally {
      await close();
    }
  });
}
