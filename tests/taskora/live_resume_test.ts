/**
 * The live state taken back after the change feed's need lapsed, over what
 * a real taskora App's workers did meanwhile: the board on fake timers (its
 * passes, frames and need move when the test ticks; taskora and Redis answer
 * in their own time, each look guarded by `waitFor`). The feed stops with
 * the last browser, workers run jobs while none runs, and the state the
 * leader writes once a browser is back counts what a direct read counts.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { finished } from "../helpers/taskora_jobs.ts";
import { passUntil } from "../helpers/live_passes.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { openStream } from "../events/sse_client.ts";
import { taskOf, withApp } from "./harness.ts";

const TASKS = ["alpha", "beta", "quiet"];

Deno.test("after a lapse, the live state counts what taskora's workers did meanwhile, as a direct read does", async () => {
  await withApp("redis", (app) => {
    for (const task of TASKS) app.task(task, { handler: () => "ok" });
  }, async (world) => {
    const client = await connectClient(world.url);
    const timers = new FakeTimers();
    const source = new RedisTaskSource({ url: world.url, commandTimeoutMs: 30_000 }, timers);
    const board = createBoardOn(timers, source, { history: false });
    const run = async (task: string, jobs: number) => {
      for (let n = 0; n < jobs; n++) {
        await finished(client, task, String(await taskOf(world.app, task).dispatch({ n })));
      }
    };
    try {
      for (const task of TASKS) await run(task, 1);
      const browser = await openStream(board.fetch, "http://board.test/board/api/events");
      await passUntil(
        timers,
        source,
        (summary) => summary?.index.tasks.filter((task) => task.stats.completed === 1).length === 3,
        "the first pass to count every task",
      );
      // The last browser closes: the feed stops once its need lapsed, and its passes with it.
      await browser.close();
      const asOf = async () => (await source.boardStore.feed.readLiveSummary())?.asOf;
      // Stopped once nobody reads the streams and a tick more writes no pass (its last pass may
      // still be writing when the tail's connection closes).
      const stoppedAt = await waitFor(async () => {
        const before = await asOf();
        await timers.tick(5_000);
        return source.eventConnections === 0 && await asOf() === before ? before : null;
      }, { what: "the feed to stop" });

      // While no feed runs, taskora's workers run jobs of two tasks.
      await run("alpha", 3);
      await run("beta", 2);

      const again = await openStream(board.fetch, "http://board.test/board/api/events");
      try {
        const summary = await passUntil(
          timers,
          source,
          (summary) => (summary?.asOf ?? 0) > stoppedAt!,
          "the first pass after the restart",
        );
        const direct = await source.getStats(TASKS);
        for (const task of TASKS) {
          const live = summary.index.tasks.find((entry) => entry.name === task)?.stats;
          assert.deepEqual(live, direct.get(task), task);
        }
        assert.deepEqual(
          TASKS.map((task) => direct.get(task)?.completed),
          [4, 3, 1],
          "the jobs run meanwhile",
        );
      } finally {
        await again.close();
      }
    } finally {
      await board.close();
      await source.close();
      await client.close();
    }
  });
});
