/**
 * The live state reads a task that moved for what its events can have
 * changed (`src/feed/task_changes.ts`), from what taskora 0.5.0's scripts
 * move with each event: this holds it to real workers. After takes,
 * finishes and dispatches, each row's counts and heads are those a whole
 * read finds, with the sweep out of the way (it would heal a wrong count
 * within its period and hide it).
 */

import assert from "node:assert/strict";
import { ChangeFeed } from "../../src/feed/change_feed.ts";
import { LiveStateKeeper } from "../../src/feed/live_state.ts";
import { Leadership } from "../../src/leadership.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { steerable, taskOf, waitForState, withApp } from "./harness.ts";

const TASKS = ["double", "flaky", "pair", "slow"];

/** `pair`: two jobs at a time, each held until released (in the order taken). */
function pairOf(app: { task: (name: string, options: unknown) => unknown }) {
  const release: (() => void)[] = [];
  app.task("pair", {
    concurrency: 2,
    handler: () => new Promise((resolve) => release.push(() => resolve("released"))),
  });
  return release;
}

Deno.test("a task's row read for what its events changed agrees with a whole read, under real workers", async () => {
  let state: ReturnType<typeof steerable>;
  let pair: (() => void)[] = [];
  await withApp("redis", (app) => {
    state = steerable(app);
    pair = pairOf(app);
  }, async (world) => {
    const timers = new FakeTimers();
    const source = createRedisSource({ url: world.url, tasks: TASKS });
    const keeper = new LiveStateKeeper({
      source,
      store: source.boardStore.feed,
      clock: () => Date.now(),
      health: { maxWaitMs: 300_000, maxIdleMs: 300_000 },
      sweepMs: 3_600_000,
    });
    const feed = new ChangeFeed({
      source,
      store: source.boardStore.feed,
      leadership: new Leadership(null, { timers }),
      timers,
      consumers: [keeper],
    });
    /** Passes until every row holds the counts and heads a whole read finds now. */
    const agreed = (when: string) =>
      waitFor(async () => {
        // Still needed (a browser open): a feed that stopped would read every task whole again.
        feed.need();
        await timers.tick(1_000);
        const direct = await source.getQueueSnapshots(TASKS);
        const rows = await source.boardStore.feed.readLiveRows(TASKS);
        return rows.every((row) => {
          const read = direct.get(row?.name ?? "")!;
          return row !== null && JSON.stringify([row.stats, row.heads]) ===
              JSON.stringify([read.stats, read.heads]);
        });
      }, { what: `the rows to agree with a whole read ${when}` });
    try {
      feed.need();
      await agreed("at the start");
      const slow = taskOf(world.app, "slow");
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(String(await slow.dispatch({})));
      await waitForState(world, ids[0], "active");
      await agreed("after dispatches and a take");
      // The job active longest finishes and the next is taken: the active list's tail moves.
      state.release.shift()!();
      await waitForState(world, ids[1], "active");
      await agreed("after the oldest active job finished");
      // Two held at once: the one taken first finishes, the other is now active longest.
      const pairs: string[] = [];
      for (let i = 0; i < 3; i++) pairs.push(String(await taskOf(world.app, "pair").dispatch({})));
      await waitForState(world, pairs[1], "active");
      await agreed("with two jobs active");
      pair.shift()!();
      await waitForState(world, pairs[2], "active");
      await agreed("after the job active longest finished beside another");
      const double = taskOf(world.app, "double");
      const doubled = await Promise.all([1, 2, 3].map((n) => double.dispatch({ n })));
      for (const job of doubled) await waitForState(world, String(job), "completed");
      await agreed("after jobs taken and finished at once");
      const flaky = taskOf(world.app, "flaky");
      await waitForState(world, String(await flaky.dispatch({})), "failed");
      await agreed("after a failure");
      assert.ok(feed.running);
    } finally {
      for (const release of [...state!.release.splice(0), ...pair.splice(0)]) release();
      await feed.close();
      await source.close();
    }
  });
});
