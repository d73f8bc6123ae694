/**
 * The TaskSource contract for `readBacklog` of `dueAfter`, the jobs the drain forecast
 * leaves out (its backlog samples are the BoardStore's:
 * `backlog_sample_contract.ts`).
 */

import assert from "node:assert/strict";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

/** Registers the `readBacklog` of `dueAfter` contract tests for one source. */
export function backlogContract(name: string, seed: Seed): void {
  Deno.test(`${name}: readBacklog counts the delayed and retrying jobs due after a time`, async () => {
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
        const counted = await source.readBacklog!({
          kind: "dueAfter",
          tasks: [...tasks, "no-such-task"],
          at,
        });
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
