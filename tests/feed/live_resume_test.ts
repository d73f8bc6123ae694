/**
 * The live state's restart after the change feed's need lapsed, against a
 * real redis-server, on fake timers (the passes and the need move when the
 * test ticks; Redis answers in its own time, each look guarded by
 * `waitFor`): the keeper takes back the rows the store holds and the feed
 * resumes each task's stream from its saved id, so the first pass re-reads
 * only the tasks that moved while no feed ran (a task whose stream was
 * trimmed past its saved id whole), and no `asOf` newer than the lapse is
 * written before the resumed tail told which tasks moved; a task whose
 * events waited for a later pass at the lapse (read too recently) is read
 * at the first pass after it.
 */

import assert from "node:assert/strict";
import { ChangeFeed } from "../../src/feed/change_feed.ts";
import { LiveStateKeeper } from "../../src/feed/live_state.ts";
import { Leadership } from "../../src/leadership.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { KeptParts, TaskSource } from "../../src/source/types.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import type { LiveSummary } from "../../src/store/feed.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { sourceWith } from "../helpers/source_with.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const TASKS = Array.from({ length: 40 }, (_, i) => `task-${String(i).padStart(2, "0")}`);

/** One read of tasks' queue snapshots: which, and which of them only in part. */
interface SnapshotRead {
  tasks: string[];
  partly: string[];
}

/** `task`'s counts in `summary`. */
function statsOf(summary: LiveSummary | null, task: string) {
  return summary?.index.tasks.find((entry) => entry.name === task)?.stats;
}

/**
 * A lone board's feed and live state over `TASKS` (one waiting job each),
 * its source's snapshot reads noted; `holdTail` (when given) is awaited
 * before each batch of the feed's tail is handed on; `rereadMs` the keeper's.
 */
async function withFeed(
  fn: (ctx: {
    client: Client;
    timers: FakeTimers;
    feed: ChangeFeed;
    source: RedisTaskSource;
    reads: SnapshotRead[];
    summary: () => Promise<LiveSummary | null>;
  }) => Promise<void>,
  holdTail?: () => Promise<void>,
  rereadMs?: number,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 30_000 }, timers);
  const reads: SnapshotRead[] = [];
  const noted: Partial<TaskSource> = {
    getQueueSnapshots: (tasks: string[], parts?: KeptParts) => {
      reads.push({ tasks: [...tasks], partly: [...parts?.counts?.keys() ?? []] });
      return source.getQueueSnapshots(tasks, parts);
    },
  };
  if (holdTail) {
    noted.tailEvents = (from, take, signal) =>
      source.tailEvents(from, async (batch) => {
        await holdTail();
        await take(batch);
      }, signal);
  }
  const watched = sourceWith(source, noted);
  const store = source.boardStore.feed;
  const keeper = new LiveStateKeeper({
    source: watched,
    store,
    clock: () => timers.now(),
    health: { maxWaitMs: 600_000, maxIdleMs: 300_000 },
    rereadMs,
  });
  const feed = new ChangeFeed({
    source: watched,
    store,
    leadership: new Leadership(null, { timers }),
    timers,
    consumers: [keeper],
  });
  try {
    for (const task of TASKS) await writeJob(client, { task, state: "waiting" });
    await source.listTasks({ fresh: true });
    const summary = () => store.readLiveSummary();
    await fn({ client, timers, feed, source, reads, summary });
  } finally {
    await feed.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

/** Runs the feed until its state holds every task, then lets its need lapse; returns the state left. */
async function runThenLapse(
  { timers, feed, summary }: {
    timers: FakeTimers;
    feed: ChangeFeed;
    summary: () => Promise<LiveSummary | null>;
  },
): Promise<LiveSummary> {
  feed.need();
  await waitFor(async () => {
    await timers.tick(1_000);
    return (await summary())?.index.tasks.length === TASKS.length;
  }, { what: "the first pass to hold every task" });
  await waitFor(async () => (await timers.tick(5_000), !feed.running), {
    what: "the feed to stop once its need lapsed",
  });
  return (await summary())!;
}

/** A worker's take of `task`'s waiting job, as taskora writes it: the job moves, one event. */
async function take(client: Client, task: string): Promise<void> {
  const keys = taskKeys(task);
  const id = await client.sendCommand(["RPOPLPUSH", keys.wait, keys.active]) as string;
  await client.sendCommand(["HSET", `${keys.jobPrefix}${id}`, "state", "active"]);
  await client.sendCommand(["XADD", keys.events, "*", "event", "active", "jobId", id]);
}

Deno.test("after a lapse, the first pass re-reads the tasks that moved, not every task", async () => {
  await withFeed(async (ctx) => {
    const { client, timers, feed, reads, summary } = ctx;
    const before = await runThenLapse(ctx);
    reads.length = 0;
    // While no feed ran, three of the forty moved: a new job for two, a take for one.
    const moved = [TASKS[3], TASKS[17], TASKS[30]];
    await writeJob(client, { task: moved[0], state: "waiting" });
    await writeJob(client, { task: moved[1], state: "waiting" });
    await take(client, moved[2]);

    const restartAt = timers.now();
    const calls = await commandsOf(client, async () => {
      feed.need();
      await waitFor(async () => ((await summary())?.asOf ?? 0) >= restartAt, {
        what: "the first pass after the restart",
      });
    });
    const read = reads.flatMap((one) => one.tasks).sort();
    // Before, every task was read whole: forty snapshots, 12 commands a task.
    assert.deepEqual(read, moved, JSON.stringify(reads));
    const state = await summary();
    assert.equal(statsOf(state, moved[0])?.waiting, 2);
    assert.equal(statsOf(state, moved[1])?.waiting, 2);
    assert.deepEqual(
      [statsOf(state, moved[2])?.waiting, statsOf(state, moved[2])?.active],
      [0, 1],
    );
    for (const task of TASKS.filter((task) => !moved.includes(task))) {
      assert.deepEqual(statsOf(state, task), statsOf(before, task), task);
    }
    // A task's snapshot script runs at most its 6 ZCARDs (the take's task fewer: its finished
    // sets are kept), and its trim check one XRANGE: three tasks, not forty (before, 240 ZCARDs).
    const seen = JSON.stringify(Object.fromEntries(calls));
    assert.ok((calls.get("zcard") ?? 0) <= 6 * moved.length, seen);
    assert.equal(calls.get("xrange"), moved.length, seen);
    console.log(`restart, 3 of 40 moved: ${totalCalls(calls)} commands`);
  });
});

Deno.test("after a lapse, a task whose stream was trimmed past its saved id is read whole", async () => {
  await withFeed(async (ctx) => {
    const { client, timers, feed, reads, summary } = ctx;
    await runThenLapse(ctx);
    reads.length = 0;
    const [trimmed, taken] = [TASKS[5], TASKS[6]];
    // Both had a take; the first's stream then lost everything before its last entry (taskora's
    // `MAXLEN ~` at work while no feed ran), the saved id among it: what it missed is not known.
    await take(client, taken);
    await take(client, trimmed);
    await client.sendCommand([
      "XADD",
      taskKeys(trimmed).events,
      "*",
      "event",
      "progress",
      "jobId",
      "x",
    ]);
    await client.sendCommand(["XTRIM", taskKeys(trimmed).events, "MAXLEN", "1"]);

    const restartAt = timers.now();
    feed.need();
    await waitFor(async () => ((await summary())?.asOf ?? 0) >= restartAt, {
      what: "the first pass after the restart",
    });
    assert.deepEqual(reads.flatMap((one) => one.tasks).sort(), [trimmed, taken]);
    const partly = reads.flatMap((one) => one.partly);
    assert.deepEqual(partly, [taken], "the take's task in part, the trimmed one whole");
    assert.equal(statsOf(await summary(), trimmed)?.active, 1);
  });
});

Deno.test("after a lapse, no asOf newer than it is written before the resumed tail told what moved", async () => {
  let held = Promise.withResolvers<void>();
  let holding = false;
  const release = () => {
    holding = false;
    held.resolve();
  };
  await withFeed(async (ctx) => {
    const { client, timers, feed, summary } = ctx;
    const before = await runThenLapse(ctx);
    const task = TASKS[8];
    await writeJob(client, { task, state: "waiting" });
    // The resumed tail's batches wait until the test lets them go on.
    holding = true;
    held = Promise.withResolvers<void>();
    try {
      feed.need();
      await waitFor(() => feed.running, { what: "the feed to start again" });
      for (let pass = 0; pass < 3; pass++) await timers.tick(1_000);
      const waiting = await summary();
      assert.equal(waiting?.asOf, before.asOf, "no pass wrote before the tail caught up");
      assert.equal(statsOf(waiting, task)?.waiting, 1);
    } finally {
      // Whatever happened: the feed's stop waits for the batch it holds.
      release();
    }
    const releasedAt = timers.now();
    const after = await waitFor(async () => {
      const state = await summary();
      return (state?.asOf ?? 0) >= releasedAt ? state : null;
    }, { what: "the first pass once the tail caught up" });
    // A count is never staler than the asOf it shows: the new job is in it.
    assert.equal(statsOf(after, task)?.waiting, 2);
  }, () => holding ? held.promise : Promise.resolve());
});

Deno.test("after a lapse, a task whose events waited for a later pass is read at the first pass", async () => {
  await withFeed(
    async (ctx) => {
      const { client, timers, feed, source, reads, summary } = ctx;
      feed.need();
      await waitFor(async () => {
        await timers.tick(1_000);
        return (await summary())?.index.tasks.length === TASKS.length;
      }, { what: "the first pass to hold every task" });
      const task = TASKS[12];
      await take(client, task);
      // Read less than a minute ago: its events wait, and the asOf stays at that read.
      await waitFor(async () => {
        await timers.tick(1_000);
        return (await summary())!.asOf < timers.now() - 1_000;
      }, { what: "a pass that left the take waiting" });
      await waitFor(async () => (await timers.tick(5_000), !feed.running), {
        what: "the feed to stop once its need lapsed",
      });
      const lapsed = await summary();
      const [row] = await source.boardStore.feed.readLiveRows([task]);
      assert.equal(lapsed!.asOf, row!.readAt, "the take still waited at the lapse, on that read");
      assert.equal(statsOf(lapsed, task)?.active, 0);
      reads.length = 0;

      const restartAt = timers.now();
      feed.need();
      const after = await waitFor(async () => {
        await timers.tick(1_000);
        const state = await summary();
        return (state?.asOf ?? 0) >= restartAt ? state : null;
      }, { what: "the first pass after the restart" });
      // Before, the feed had saved the take's id: the restart never saw it, and the row said 0.
      assert.deepEqual(reads.flatMap((one) => one.tasks), [task]);
      assert.deepEqual([statsOf(after, task)?.waiting, statsOf(after, task)?.active], [0, 1]);
    },
    undefined,
    60_000,
  );
});
