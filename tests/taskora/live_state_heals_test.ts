/**
 * The leader's live state over what a real taskora App does, the board on
 * fake timers (its passes and discovery move when the test ticks; taskora
 * and Redis answer in their own time, each look guarded by `waitFor`):
 * - a task taskora creates after the board's start is in the live state at
 *   the pass after the discovery pass that finds it;
 * - what taskora's retention trims behind the feed's back (no event) is
 *   healed within one sweep.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { DEFAULT_FRESHNESS_MS } from "../../src/source/redis/discovery.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import type { LiveSummary } from "../../src/store/feed.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { finished } from "../helpers/taskora_jobs.ts";
import { passUntil } from "../helpers/live_passes.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { openStream } from "../events/sse_client.ts";
import { taskOf, withApp } from "./harness.ts";

const DISCOVERY_MS = 5_000;
/** The live state's sweep period at a few tasks: its default `sweepMs`. */
const SWEEP_PERIOD_MS = 60_000;

type Client = Awaited<ReturnType<typeof connectClient>>;

/** A board on fake timers over `url` with a browser open (what makes its leader keep the state). */
async function withWatchedBoard(
  url: string,
  fn: (ctx: { client: Client; timers: FakeTimers; source: RedisTaskSource }) => Promise<void>,
): Promise<void> {
  const client = await connectClient(url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource(
    { url, commandTimeoutMs: 30_000, discoveryIntervalMs: DISCOVERY_MS },
    timers,
  );
  const board = createBoardOn(timers, source, { history: false });
  const stream = await openStream(board.fetch, "http://board.test/board/api/events");
  try {
    await fn({ client, timers, source });
  } finally {
    await stream.close();
    await board.close();
    await source.close();
    await client.close();
  }
}

/** `task`'s counts in `summary`. */
function statsOf(summary: LiveSummary | null, task: string) {
  return summary?.index.tasks.find((row) => row.name === task)?.stats;
}

Deno.test("a task taskora creates after the board's start is in the live state at the pass after discovery finds it", async () => {
  await withApp("redis", (app) => {
    app.task("early", { handler: () => "ok" });
    app.task("late", { handler: () => "ok" });
  }, async (world) => {
    const client = await connectClient(world.url);
    try {
      await finished(client, "early", String(await taskOf(world.app, "early").dispatch({})));
    } finally {
      await client.close();
    }
    await withWatchedBoard(world.url, async ({ client, timers, source }) => {
      await passUntil(timers, source, (summary) => statsOf(summary, "early"), "the first pass");
      const createdAt = timers.now();
      // The task's first keys: nothing of it existed when the board started.
      await finished(client, "late", String(await taskOf(world.app, "late").dispatch({})));
      await waitFor(async () => {
        await timers.tick(1_000);
        return (await source.listTasks()).includes("late");
      }, { what: "a discovery pass to find the new task" });
      const foundAt = timers.now();
      // Discovery keeps its list at most a minute old (a pass's cost may space them out).
      assert.ok(foundAt - createdAt <= DEFAULT_FRESHNESS_MS, `found ${foundAt - createdAt} ms on`);
      await passUntil(
        timers,
        source,
        (summary) => statsOf(summary, "late")?.completed === 1,
        "the new task in the live state",
      );
      // Read at the live state's pass after the discovery pass that found it.
      assert.ok(timers.now() - foundAt <= 2_000, `${timers.now() - foundAt} ms after discovery`);
    });
  });
});

Deno.test("jobs taskora's retention trims behind the feed's back leave the counts within one sweep", async () => {
  const jobs = 5;
  await withApp("redis", (app) => {
    app.task("send-email", {
      // taskora trims at its stall check: every 100 ms here.
      stall: { interval: 100, maxCount: 50 },
      handler: (_data: unknown, ctx: { heartbeat(): void }) => {
        ctx.heartbeat();
        return "sent";
      },
    });
  }, async (world) => {
    await withWatchedBoard(world.url, async ({ client, timers, source }) => {
      const ids: string[] = [];
      for (let n = 0; n < jobs; n++) {
        ids.push(String(await taskOf(world.app, "send-email").dispatch({ n })));
      }
      for (const id of ids) await finished(client, "send-email", id);
      // The completions came as events: the next passes count them.
      await passUntil(
        timers,
        source,
        (summary) => statsOf(summary, "send-email")?.completed === jobs,
        "the completions counted",
      );
      // Then taskora's retention removes them, writing no event; the clock stands still.
      await waitFor(async () => {
        const held = await client.zCard(taskKeys("send-email").completed);
        return held === 0;
      }, { what: "taskora's retention to trim the completed set" });
      const drifted = await source.boardStore.feed.readLiveSummary();
      assert.equal(statsOf(drifted, "send-email")?.completed, jobs, "no event told the feed");
      const trimmedAt = timers.now();
      await passUntil(
        timers,
        source,
        (summary) => statsOf(summary, "send-email")?.completed === 0,
        "the sweep to heal the count",
      );
      assert.ok(
        timers.now() - trimmedAt <= SWEEP_PERIOD_MS + 1_000,
        `healed ${timers.now() - trimmedAt} ms on`,
      );
    });
  }, { app: { retention: { completed: { maxAge: "3s" } } } });
});
