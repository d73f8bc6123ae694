/**
 * An open browser is a need of the change feed however rare its stats
 * frames: each frame's poll notes the need, and one need outlasts the time
 * to the next frame, so the leader's feed runs on between them. Before, a
 * need lasted 30 s whatever the stats interval: at one frame a minute (the
 * fleet's browser tests) the feed stopped half-way, forgot its live state,
 * and the next frame or page load restarted it with a read of every task
 * (12,284 Redis commands at 1,011 tasks, `docs/measurements.md`). On a
 * memory source and fake timers, nothing else asking.
 */

import assert from "node:assert/strict";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";

const STATS_INTERVAL_MS = 60_000;

Deno.test("an open browser keeps the change feed running across stats frames a minute apart", async () => {
  const timers = new FakeTimers();
  // The store's clock moves with the timers: the need it notes for the leader lapses in their time.
  const epoch = Date.now();
  const source = createMemorySource({ seed: readFixture(), now: () => epoch + timers.now() });
  const board = createBoardOn(timers, source, {
    statsInterval: STATS_INTERVAL_MS,
    history: false,
  });
  const browser = await board.fetch(new Request("http://localhost/board/api/events"));
  try {
    assert.equal(browser.status, 200);
    const summary = await waitFor(async () => {
      await timers.tick(1_000);
      return await source.boardStore.feed!.readLiveSummary();
    }, { what: "the leader's first live state" });
    const every = summary.index.tasks.length;
    assert.ok(every > 1, `${every} tasks`);
    // From here on, a read of every task's counts is a restart of the feed (its sweep and the
    // frames read from the live state, a task or none at a time).
    let everyTaskReads = 0;
    const countEvery = (tasks: readonly string[]) => {
      if (tasks.length === every) everyTaskReads++;
    };
    const snapshots = source.getQueueSnapshots.bind(source);
    source.getQueueSnapshots = (tasks) => (countEvery(tasks), snapshots(tasks));
    const stats = source.getStats.bind(source);
    source.getStats = (tasks) => (countEvery(tasks ?? []), stats(tasks));

    for (let second = 0; second < 2.5 * STATS_INTERVAL_MS / 1_000; second++) {
      await timers.tick(1_000);
    }
    const last = await source.boardStore.feed!.readLiveSummary();
    assert.ok(last !== null && last.asOf > summary.asOf, "the feed's passes went on");
    assert.equal(everyTaskReads, 0, "no read of every task: the feed never stopped");
  } finally {
    await browser.body?.cancel();
    await board.close();
    await source.close();
  }
});
