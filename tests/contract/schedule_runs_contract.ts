/**
 * The BoardStore contract for the runs the board dispatches itself: taskora
 * keeps only a schedule's last run, so the store keeps the board's "Run now"
 * runs per schedule, and the scheduler's runs a board saw, newest first,
 * one entry per job and capped, until the schedule is deleted.
 */

import assert from "node:assert/strict";
import type { StoreSeed } from "./board_store_contract.ts";

/** Registers the schedule-runs contract for the store `seed` makes. */
export function scheduleRunsContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: a schedule's runs come back newest first and capped, each schedule its own`, async () => {
    const { store, close } = await seed();
    try {
      assert.deepEqual(
        await store.listBoardRuns(["heartbeat", "nightly"], 5),
        new Map([["heartbeat", []], ["nightly", []]]),
      );
      for (const at of [1000, 2000, 3000, 4000]) {
        await store.recordBoardRun("heartbeat", { jobId: `j${at}`, at, by: "board" }, 3);
      }
      await store.recordBoardRun("nightly", { jobId: "n1", at: 5000, by: "board" }, 3);
      const runs = await store.listBoardRuns(["heartbeat", "nightly"], 5);
      assert.deepEqual(runs.get("heartbeat"), [
        { jobId: "j4000", at: 4000, by: "board" },
        { jobId: "j3000", at: 3000, by: "board" },
        { jobId: "j2000", at: 2000, by: "board" },
      ]);
      assert.deepEqual(runs.get("nightly"), [{ jobId: "n1", at: 5000, by: "board" }]);
      assert.deepEqual((await store.listBoardRuns(["heartbeat"], 1)).get("heartbeat"), [
        { jobId: "j4000", at: 4000, by: "board" },
      ]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a deleted schedule's runs are forgotten, the others kept`, async () => {
    const { store, close } = await seed();
    try {
      await store.recordBoardRun("heartbeat", { jobId: "j1", at: 1000, by: "board" }, 10);
      await store.recordBoardRun("nightly", { jobId: "n1", at: 2000, by: "board" }, 10);
      await store.forgetBoardRuns("heartbeat");
      assert.deepEqual(
        await store.listBoardRuns(["heartbeat", "nightly"], 10),
        new Map([["heartbeat", []], ["nightly", [{ jobId: "n1", at: 2000, by: "board" }]]]),
      );
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a run noted again is kept once, and who made each run is kept`, async () => {
    const { store, close } = await seed();
    try {
      const scheduled = { jobId: "s1", at: 1000, by: "scheduler" as const };
      // Two replicas see the same last run of taskora's scheduler: one entry.
      await store.recordBoardRun("heartbeat", scheduled, 10);
      await store.recordBoardRun("heartbeat", { jobId: "b1", at: 1500, by: "board" }, 10);
      await store.recordBoardRun("heartbeat", scheduled, 10);
      await store.recordBoardRun("heartbeat", { jobId: "s2", at: 2000, by: "scheduler" }, 10);
      assert.deepEqual((await store.listBoardRuns(["heartbeat"], 10)).get("heartbeat"), [
        { jobId: "s2", at: 2000, by: "scheduler" },
        { jobId: "s1", at: 1000, by: "scheduler" },
        { jobId: "b1", at: 1500, by: "board" },
      ]);
    } finally {
      await close();
    }
  });
}
