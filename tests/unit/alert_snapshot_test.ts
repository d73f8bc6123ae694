/**
 * What one evaluation reads of the tasks: their figures from the live state
 * while it is fresh; read directly, the `noProgress` rule's last take only
 * for the tasks whose verdict it could change.
 */

import assert from "node:assert/strict";
import { measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { readFixture } from "../helpers/fixture.ts";
import { sourceWith } from "../helpers/source_with.ts";
import type { StreamQuery } from "../../src/source/types.ts";
import { livePass, liveRow } from "../helpers/live_state.ts";

Deno.test("noProgress reads a task's last take only once its oldest job waited past the threshold, or while its alert is open", async () => {
  const memory = createMemorySource({ seed: readFixture() });
  const asked: string[] = [];
  const source = sourceWith(memory, {
    readStreams: <R extends StreamQuery>(query: R) => {
      const asking: StreamQuery = query;
      if (asking.kind === "activity") asked.push(...asking.tasks);
      return memory.readStreams!(query);
    },
  });
  try {
    const task = "send-email";
    await memory.retryAllFailed({ task }); // its five failed jobs wait again
    const since = (await memory.getQueueSnapshots([task])).get(task)!.heads.oldestWaiting!.since;
    const rule = ruleOf("noProgress", 60_000, { tasks: [task] });
    /** The tasks whose last take a pass at `waited` ms after the oldest job's arrival reads. */
    const readAfter = async (waited: number, open: string[] = []) => {
      asked.length = 0;
      const snapshot = await readSnapshot(source, [rule], since + waited, { open: new Set(open) });
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

Deno.test("a pass takes the task figures from the live state while it is at most one interval old: only stalled reads a task, one with active jobs", async () => {
  const memory = createMemorySource();
  memory.store.enqueue("mail", { id: "m1", data: {} });
  memory.store.enqueue("pdf", { id: "p1", data: {} });
  const read: string[] = [];
  const noting =
    <A extends unknown[], R>(name: string, call: (tasks: string[], ...rest: A) => R) =>
    (tasks: string[], ...rest: A): R => {
      read.push(`${name} ${tasks.join(",")}`);
      return call(tasks, ...rest);
    };
  const source = sourceWith(memory, {
    getQueueSnapshots: noting("getQueueSnapshots", memory.getQueueSnapshots.bind(memory)),
    getThroughputByTask: noting("getThroughputByTask", memory.getThroughputByTask.bind(memory)),
    readStreams: <R extends StreamQuery>(query: R) => {
      read.push(`readStreams ${query.kind}`);
      return memory.readStreams!(query);
    },
  });
  const now = 1_800_000_000_000;
  const minute = Math.floor(now / 60_000) * 60_000;
  // The hour of minutes a row holds, none finished.
  const quiet = Array(60).fill(0);
  const hour = { from: minute - 59 * 60_000, bucketMs: 60_000, completed: quiet, failed: quiet };
  const mail = liveRow("mail", { waiting: 40, active: 2 }, {
    heads: {
      oldestWaiting: { id: "m9", since: now - 90_000 },
      oldestActive: { id: "m8", since: now - 5_000 },
      nextDue: { id: "m7", at: now - 30_000 },
    },
    rate: {
      ...hour,
      completed: [...hour.completed.slice(2), 6, 1],
      failed: [...hour.failed.slice(2), 2, 1],
    },
    lastTakenAt: now - 20_000,
    reruns: 3,
  });
  const pdf = liveRow("pdf", { waiting: 1 }, { rate: hour });
  await memory.boardStore.feed!.writeLiveState(livePass(now - 3_000, [mail, pdf]));
  const rules =
    (["backlog", "oldestWaiting", "overdue", "reruns", "noProgress", "stalled"] as const)
      .map((kind) => ruleOf(kind, 1)).concat(ruleOf("failureRate", 1, { windowMs: 900_000 }));
  try {
    const snapshot = await readSnapshot(source, rules, now, {
      liveMaxAgeMs: 3_000,
      feed: memory.boardStore.feed,
    });
    assert.deepEqual(read, ["getQueueSnapshots mail"], "the locks of the task with active jobs");
    const figures = snapshot.tasks!.get("mail")!;
    assert.deepEqual(figures.stats, mail.stats);
    assert.deepEqual(figures.heads, mail.heads);
    assert.equal(figures.reruns, 3);
    assert.equal(figures.lastTakenAt, now - 20_000);
    const measured = (kind: string) =>
      measure(rules.find((rule) => rule.kind === kind)!, snapshot, new KnownShapes(), now)!
        .find((m) => m.task === "mail")!.figure;
    assert.equal(measured("backlog"), 40);
    assert.equal(measured("oldestWaiting"), 90_000);
    assert.equal(measured("overdue"), 30_000);
    assert.equal(measured("noProgress"), 20_000);
    assert.equal(measured("failureRate"), 30, "3 failed of 10 finished in the window");
    assert.equal(snapshot.tasks!.get("pdf")!.stats.waiting, 1);

    // A window longer than the hour a row holds: the minutes before it are read.
    read.length = 0;
    const day = ruleOf("failureRate", 1, { windowMs: 7_200_000 });
    await readSnapshot(source, [day], now, { liveMaxAgeMs: 3_000, feed: memory.boardStore.feed });
    assert.deepEqual(read, ["getThroughputByTask mail,pdf"]);

    // Older than one interval: every figure is read directly again.
    read.length = 0;
    const direct = await readSnapshot(source, rules, now + 1, {
      liveMaxAgeMs: 3_000,
      feed: memory.boardStore.feed,
    });
    assert.equal(direct.tasks!.get("mail")!.stats.waiting, 1);
    assert.ok(read.includes("getQueueSnapshots mail,pdf"), read.join("; "));
  } finally {
    await memory.close();
  }
});
