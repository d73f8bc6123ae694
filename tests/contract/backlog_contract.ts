/**
 * The TaskSource contract for the drain forecast's backlog samples
 * (`writeBacklogSample`, `readBacklogSamples`): kept per minute for every
 * board on the store, merged when a minute is written twice, null where
 * no sample is kept; and `countDueAfter`, the jobs a forecast leaves out.
 */

import assert from "node:assert/strict";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Registers the backlog sample contract tests for one source. */
export function backlogContract(name: string, seed: Seed): void {
  Deno.test(`${name}: backlog samples are read back per minute, merged, and null where none is kept`, async () => {
    const { source, close } = await seed(readFixture());
    try {
      const at = 1_800_000_000_000;
      const sample = (backlog: number) => ({ at: at + 12_345, backlog, finishedBefore: 3 });
      await source.writeBacklogSample!(
        at,
        new Map([["mail", sample(120)], ["resize", sample(4)]]),
        HOUR,
      );
      await source.writeBacklogSample!(at + MINUTE, new Map([["mail", sample(90)]]), HOUR);
      // A second board's write of the same minute adds to it.
      await source.writeBacklogSample!(at, new Map([["report", sample(7)]]), HOUR);
      assert.deepEqual(
        await source.readBacklogSamples!("mail", [at, at + MINUTE, at + 2 * MINUTE]),
        [sample(120), sample(90), null],
      );
      assert.deepEqual(await source.readBacklogSamples!("report", [at, at + MINUTE]), [
        sample(7),
        null,
      ]);
      assert.deepEqual(await source.readBacklogSamples!("no-such-task", [at]), [null]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: countDueAfter counts the delayed and retrying jobs due after a time`, async () => {
    const fixture = readFixture();
    const { source, close } = await seed(fixture);
    try {
      const runAts = (task: string) => {
        const key = fixture.keys[`taskora:{${task}}:delayed`];
        return key?.type === "zset" ? key.value.map((member) => member.score) : [];
      };
      const tasks = await source.listTasks();
      const [first] = runAts("resize-image").sort((a, b) => a - b);
      for (const at of [0, first - 1, first, Number.MAX_SAFE_INTEGER]) {
        const counted = await source.countDueAfter!([...tasks, "no-such-task"], at);
        for (const task of tasks) {
          assert.equal(counted.get(task), runAts(task).filter((runAt) => runAt > at).length, task);
        }
        assert.equal(counted.get("no-such-task"), 0);
      }
    } finally {
      await close();
    }
  });
}
