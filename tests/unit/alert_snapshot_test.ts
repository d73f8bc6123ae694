/**
 * What one evaluation reads beyond the counts: the `noProgress` rule's last
 * take is read only for the tasks whose verdict it could change.
 */

import assert from "node:assert/strict";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { readFixture } from "../helpers/fixture.ts";
import { sourceWith } from "../helpers/source_with.ts";

Deno.test("noProgress reads a task's last take only once its oldest job waited past the threshold, or while its alert is open", async () => {
  const memory = createMemorySource({ seed: readFixture() });
  const asked: string[] = [];
  const source = sourceWith(memory, {
    getTaskActivity: (
      tasks,
      depth,
    ) => (asked.push(...tasks), memory.getTaskActivity!(tasks, depth)),
  });
  try {
    const task = "send-email";
    await memory.retryAllFailed(task); // its five failed jobs wait again
    const since = (await memory.getQueueSnapshots([task])).get(task)!.heads.oldestWaiting!.since;
    const rule = ruleOf("noProgress", 60_000, { tasks: [task] });
    /** The tasks whose last take a pass at `waited` ms after the oldest job's arrival reads. */
    const readAfter = async (waited: number, open: string[] = []) => {
      asked.length = 0;
      const snapshot = await readSnapshot(source, [rule], since + waited, new Set(open));
      assert.ok(snapshot.tasks?.has(task), "the task's counts are read on every pass");
      return [...asked];
    };
    // The figure is at most the oldest job's wait: up to the threshold no take can breach it.
    assert.deepEqual(await readAfter(60_000), []);
    assert.deepEqual(await readAfter(60_001), [task]);
    // An open alert's figure is told when it resolves, so it is read exactly.
    assert.deepEqual(await readAfter(1_000, [task]), [task]);
    // Another kind reads no take at all.
    asked.length = 0;
    await readSnapshot(source, [ruleOf("backlog", 1, { tasks: [task] })], since + 600_000);
    assert.deepEqual(asked, []);
  } finally {
    await memory.close();
  }
});
