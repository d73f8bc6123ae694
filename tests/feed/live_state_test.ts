/**
 * The live state the leader keeps from the change feed, against a real
 * redis-server, on fake timers (the lease, the passes and discovery move
 * when the test ticks; Redis answers in its own time, so each look is
 * guarded by `waitFor`), while a browser's event stream is open or an
 * overview was asked (what makes the leader run the feed):
 * - at 1,000 tasks a just-started board's first page comes from the feed's
 *   first pass, which that page's need starts (not from reading every task
 *   on the request path), a page is served in at most 60 Redis commands,
 *   with the same totals and verdicts as a follower's direct read;
 * - what changes without an event (taskora's retention trimming a finished
 *   set, a job removed, a task deleted) heals within one sweep;
 * - a task created after the start appears within one discovery pass;
 * - with nothing moving, the sweep costs its budget of commands a second,
 *   not a whole read of every task once a minute, and still heals within
 *   one sweep (its period at that number of tasks);
 * - a task that keeps moving is read once per `rereadMs`, the `asOf` then
 *   the oldest read whose task's events wait; this board's own change is
 *   read at the next pass, which leaves none waiting; and a pass that takes
 *   long (on the keeper's clock) leaves none waiting either.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { OverviewResponse } from "../../src/contract/overview.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import {
  DEFAULT_SWEEP_COMMANDS_PER_SECOND,
  LiveStateKeeper,
  sweepPeriodMs,
} from "../../src/feed/live_state.ts";
import type { EventBatch } from "../../src/source/types.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { passUntil } from "../helpers/live_passes.ts";
import { sourceWith } from "../helpers/source_with.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { fillRedis, writeJob } from "../helpers/wire_writer.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** A board over a Redis source, both on `timers`, with `fill` written first. */
async function withBoard(
  fill: (client: Client) => Promise<void>,
  fn: (ctx: {
    client: Client;
    url: string;
    timers: FakeTimers;
    source: RedisTaskSource;
    overview: (query?: string) => Promise<OverviewResponse>;
    watch: () => Promise<void>;
  }) => Promise<void>,
  sourceOptions: { discoveryIntervalMs?: number } = {},
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource(
    { url: redis.url, commandTimeoutMs: 30_000, ...sourceOptions },
    timers,
  );
  // No history: its recorder would start the feed before the browser the tests open.
  const board = createBoardOn(timers, source, { history: false });
  let stream = null as ReadableStream | null;
  try {
    await fill(client);
    // A browser's event stream: what makes the leader run the feed.
    const watch = async () => {
      const events = await board.fetch(new Request("http://127.0.0.1/board/api/events"));
      assert.equal(events.status, 200);
      stream = events.body;
    };
    const overview = async (query = "") => {
      const response = await board.fetch(
        new Request(`http://127.0.0.1/board/api/overview${query}`),
      );
      assert.equal(response.status, 200);
      return await response.json() as OverviewResponse;
    };
    await fn({ client, url: redis.url, timers, source, overview, watch });
  } finally {
    await stream?.cancel();
    await board.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

/**
 * The overview of `query` as a follower of the board reads it once the live
 * state is older than one stats interval: directly.
 */
async function followerOverview(url: string, query: string): Promise<OverviewResponse> {
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url, commandTimeoutMs: 30_000 }, timers);
  const board = createBoardOn(timers, source, { history: false });
  try {
    await timers.tick(10_000);
    const response = await board.fetch(new Request(`http://127.0.0.1/board/api/overview${query}`));
    assert.equal(response.status, 200);
    return await response.json() as OverviewResponse;
  } finally {
    await board.close();
    await source.close();
  }
}

Deno.test("at 1,000 tasks a just-started board's first page comes from one pass, and a page of 50 by health costs at most 60 commands", async () => {
  await withBoard(
    (client) => fillRedis(client as never, { jobs: 8_000, tasks: 1_000 }),
    async ({ client, url, timers, source, overview }) => {
      // Who reads every task's counts (the hub's stats frame reads its own way).
      const everyTask: number[] = [];
      const read = source.getQueueSnapshots.bind(source);
      source.getQueueSnapshots = (tasks) => {
        if (tasks.length === 1_000) everyTask.push(timers.now());
        return read(tasks);
      };
      // Nobody watches: the first page notes the feed's need, the board takes the lease and
      // the page waits for the feed's first pass.
      const first = await overview("?limit=50&sort=health");
      const summary = await source.boardStore.feed.readLiveSummary();
      assert.equal(summary?.index.tasks.length, 1_000, "one pass read every task");
      assert.equal(first.asOf, summary?.asOf, "the first page is the first pass's");
      assert.equal(
        everyTask.length,
        1,
        "every task was read once, by the pass, not on the request",
      );
      let page!: OverviewResponse;
      const calls = await commandsOf(client, async () => {
        page = await overview("?limit=50&sort=health");
      });
      assert.ok(totalCalls(calls) <= 60, JSON.stringify(Object.fromEntries(calls)));
      // The answer says how old its figures are: the last pass's time (one may have ended since).
      assert.ok(page.asOf >= summary!.asOf, `${page.asOf} < ${summary!.asOf}`);
      assert.equal(page.asOf, (await source.boardStore.feed.readLiveSummary())?.asOf);
      assert.equal(page.tasks.length, 50);
      assert.equal(page.matched, 1_000);
      const direct = await followerOverview(url, "?limit=50&sort=health");
      assert.equal(direct.matched, 1_000);
      assert.ok(direct.asOf > page.asOf, "read directly");
      assert.deepEqual(page.totals, direct.totals);
      assert.deepEqual(page.healthCounts, direct.healthCounts);
      assert.deepEqual(
        page.tasks.map((task) => task.health.status),
        direct.tasks.map((task) => task.health.status),
      );
    },
  );
});

Deno.test("what changes without an event heals within one sweep: a trimmed finished set, a removed job, a deleted task", async () => {
  const now = Date.now();
  await withBoard(
    async (client) => {
      for (const task of ["billing", "email", "report"]) {
        for (let i = 0; i < 3; i++) {
          await writeJob(client as never, { task, state: "completed", finishedOn: now - i });
          await writeJob(client as never, { task, state: "waiting", id: `${task}-w${i}` });
        }
      }
    },
    async ({ client, timers, source, watch }) => {
      await watch();
      await passUntil(
        timers,
        source,
        (summary) => summary?.index.tasks.length === 3 && summary.index.totals.completed === 9,
        "the first pass",
      );
      // Behind the feed's back, as taskora's retention, an expiry and a deletion do: no event.
      await client.sendCommand(["ZREMRANGEBYRANK", "taskora:{billing}:completed", "0", "1"]);
      await client.sendCommand(["LREM", "taskora:{email}:wait", "0", "email-w0"]);
      await client.sendCommand(["DEL", "taskora:{email}:email-w0"]);
      const reportKeys = await client.keys("taskora:{report}*");
      await client.del(reportKeys);
      const healed = await passUntil(timers, source, (summary) => {
        const byName = new Map(summary?.index.tasks.map((task) => [task.name, task.stats]));
        return byName.get("billing")?.completed === 1 && byName.get("email")?.waiting === 2 &&
          !byName.has("report");
      }, "the sweep to heal the counts");
      assert.ok(timers.now() <= 60_000 + 10_000 + 5_000, `healed at ${timers.now()} ms`);
      const rows = await source.boardStore.feed.readLiveRows(["billing", "email"]);
      assert.deepEqual(rows.map((row) => row?.stats), [
        (await source.getStats(["billing"])).get("billing"),
        (await source.getStats(["email"])).get("email"),
      ]);
      assert.deepEqual(healed.index.totals.waiting, 5);
    },
  );
});

Deno.test("a task created after the start appears within one discovery pass", async () => {
  await withBoard(
    (client) => writeJob(client as never, { task: "early", state: "waiting" }).then(() => {}),
    async ({ client, timers, source, overview, watch }) => {
      await watch();
      await passUntil(timers, source, (summary) => summary?.index.tasks.length === 1, "first pass");
      await writeJob(client as never, { task: "late", state: "waiting" });
      await waitFor(async () => {
        await timers.tick(1_000);
        return (await source.listTasks()).includes("late");
      }, { what: "a discovery pass to find the new task" });
      const foundAt = timers.now();
      await passUntil(
        timers,
        source,
        (summary) => summary?.index.tasks.some((task) => task.name === "late"),
        "the new task in the live state",
      );
      assert.ok(timers.now() - foundAt <= 2_000, `${timers.now() - foundAt} ms after discovery`);
      const page = await overview("?q=late");
      assert.deepEqual(page.tasks.map((task) => task.stats.waiting), [1]);
    },
    { discoveryIntervalMs: 5_000 },
  );
});

/**
 * The keeper alone over `jobs` jobs on `count` tasks, its passes driven by
 * hand (no browser's stats frames in a count), after its first pass; `at`
 * moves its clock by `ms` and says where it is. With `rereadMs`, the
 * keeper's; with `readMs`, each read of the queues takes that long on its
 * clock (a loaded machine).
 */
async function withKeeper(
  count: number,
  jobs: number,
  fn: (ctx: {
    client: Client;
    source: RedisTaskSource;
    keeper: LiveStateKeeper;
    tasks: string[];
    at: (ms?: number) => number;
  }) => Promise<void>,
  { rereadMs, readMs = 0 }: { rereadMs?: number; readMs?: number } = {},
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const tasks = Array.from({ length: count }, (_, i) => `task-${i}`).sort();
  const source = new RedisTaskSource({ url: redis.url, tasks }, new FakeTimers());
  let now = Date.now();
  const keeper = new LiveStateKeeper({
    source: sourceWith(source, {
      getQueueSnapshots: async (...args) => {
        const read = await source.getQueueSnapshots(...args);
        now += readMs;
        return read;
      },
    }),
    store: source.boardStore.feed,
    clock: () => now,
    health: { maxWaitMs: 300_000, maxIdleMs: 300_000 },
    rereadMs,
  });
  try {
    await fillRedis(client as never, { jobs, tasks: count });
    await keeper.started();
    await keeper.pass();
    await fn({ client, source, keeper, tasks, at: (ms = 0) => now += ms });
  } finally {
    keeper.stopped();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("with nothing moving the sweep costs its budget, not a read of every task a minute, and heals within its period", async () => {
  await withKeeper(200, 1_600, async ({ client, source, keeper, at }) => {
    const seconds = 60;
    const calls = await commandsOf(client, async () => {
      for (let t = 0; t < seconds; t++) {
        at(1_000);
        await keeper.pass();
      }
    });
    const perSecond = totalCalls(calls) / seconds;
    const seen = JSON.stringify(Object.fromEntries(calls));
    console.log(`nothing moving at 200 tasks: ${perSecond} commands/s ${seen}`);
    // The sweep's 2 (half of the leader's background budget, the reconcile the other half) and
    // the pass's HSET; at 4 this was 4.9, and a whole read of every task a minute about 80.
    assert.ok(perSecond <= 3.2, `${perSecond} commands/s: ${seen}`);
    // Behind the feed's back: one task's finished set trimmed, no event.
    const [before] = await source.boardStore.feed.readLiveRows(["task-7"]);
    await client.sendCommand(["ZREMRANGEBYRANK", "taskora:{task-7}:completed", "0", "0"]);
    const trimmedAt = at();
    const period = sweepPeriodMs(200, 60_000, DEFAULT_SWEEP_COMMANDS_PER_SECOND);
    assert.equal(period, 900_000, "200 checks of 9 commands at 2 a second");
    // A pass checks as many tasks as the time since the last is of the period: passes 10 s
    // apart check what ten 1 s apart do, in a tenth of the round trips (up to 900 of them).
    for (;;) {
      at(10_000);
      await keeper.pass();
      const [row] = await source.boardStore.feed.readLiveRows(["task-7"]);
      if (row!.stats.completed === before!.stats.completed - 1) break;
      assert.ok(at() - trimmedAt <= period, `not healed ${at() - trimmedAt} ms on`);
    }
  });
});

Deno.test("the sweep takes a retrying split counted since a task's read from the source, with no whole read", async () => {
  // Each task one job in each state: one of its two delayed-set members is retrying.
  await withKeeper(30, 240, async ({ client, source, keeper, at }) => {
    const first = await source.boardStore.feed.readLiveSummary();
    assert.ok(first!.index.tasks.every((task) => task.retryingAsOf === null), "not counted yet");
    // The reconcile counts every task after its first read: no event says so.
    await source.reconcileRetrying();
    const calls = await commandsOf(client, async () => {
      for (
        let t = 0;
        t < sweepPeriodMs(30, 60_000, DEFAULT_SWEEP_COMMANDS_PER_SECOND) / 1_000;
        t++
      ) {
        at(1_000);
        await keeper.pass();
      }
    });
    const seen = JSON.stringify(Object.fromEntries(calls));
    // A whole read sends the heads' LINDEX and the minutes' MGET; a check only the counts.
    assert.equal(totalCalls(calls, ["lindex", "mget"]), 0, `a task was read whole: ${seen}`);
    const swept = await source.boardStore.feed.readLiveSummary();
    for (const { name, stats, retryingAsOf } of swept!.index.tasks) {
      assert.notEqual(retryingAsOf, null, `${name} counted within one sweep`);
      assert.deepEqual([stats.delayed, stats.retrying], [1, 1], name);
    }
  });
});

Deno.test("a task that moves is read again for what its events changed: its counts a take and a finish move, its minutes' counters, its locks every 15 s", async () => {
  // Each task a few jobs of each state: waiting, prioritized, active and failed ones among them.
  await withKeeper(10, 400, async ({ client, keeper, tasks, at }) => {
    const seconds = 30;
    const calls = await commandsOf(client, async () => {
      for (let t = 0; t < seconds; t++) {
        const now = at(1_000);
        // Every task: a worker took a new job (not the one waiting longest) and finished it.
        keeper.take({
          events: tasks.flatMap((task) =>
            ["active", "completed"].map((event) => ({
              task,
              event,
              jobId: `new-${t}`,
              fields: {},
              at: now,
            }))
          ),
          positions: new Map(),
          tasks,
          trimmed: [],
          caughtUp: true,
        });
        await keeper.pass();
      }
    });
    const perSecond = totalCalls(calls) / seconds;
    const seen = JSON.stringify(Object.fromEntries(calls));
    console.log(`10 tasks moving: ${perSecond} commands/s ${seen}`);
    // The oldest waiting job's hash (HMGET) is read only when an event may have changed it.
    assert.equal(calls.get("hmget") ?? 0, 0, seen);
    // The locks of each task's 5 active jobs: at its first read and every 15 s, not every pass.
    assert.ok((calls.get("exists") ?? 0) <= tasks.length * 5 * 2, seen);
    // Of the counts, only those a take and a finish change: the wait list and the prioritized
    // set, the active list, the completed set (before, all eight: 6 ZCARDs and 2 LLENs a pass).
    assert.equal(calls.get("zcard"), tasks.length * seconds * 2, seen);
    assert.equal(calls.get("llen"), tasks.length * seconds * 2, seen);
    // The job active longest is still active and no delayed job moved: no head is read.
    assert.equal(totalCalls(calls, ["lindex", "hget", "zrange"]), 0, seen);
    // No job failed: the failed set is not read, only the minutes' counters.
    assert.equal(totalCalls(calls, ["zcount", "zrangebyscore"]), 0, seen);
    assert.equal(calls.get("mget"), tasks.length * seconds, seen);
    // 7 commands a task a pass, the locks and the pass's HSET (before, 16 a task: 165 a second).
    assert.ok(perSecond <= tasks.length * 8 + 1, `${perSecond} commands/s: ${seen}`);
  });
});

/** A batch in which a worker took a new job of each of `tasks` and finished it, at `at`. */
function takenAndFinished(tasks: readonly string[], job: string, at: number): EventBatch {
  return {
    events: tasks.flatMap((task) =>
      ["active", "completed"].map((event) => ({ task, event, jobId: job, fields: {}, at }))
    ),
    positions: new Map(),
    tasks: [...tasks],
    trimmed: [],
    caughtUp: true,
  };
}

Deno.test("a task that moves at every pass is read once per rereadMs, and the asOf is the oldest read whose events wait", async () => {
  await withKeeper(10, 400, async ({ client, source, keeper, tasks, at }) => {
    const start = at();
    const asOfs: number[] = [];
    const calls = await commandsOf(client, async () => {
      for (let t = 1; t <= 30; t++) {
        keeper.take(takenAndFinished(tasks, `new-${t}`, at(1_000)));
        await keeper.pass();
        const state = await source.boardStore.feed.readLiveState();
        asOfs.push(state!.asOf - start);
        // Honest: no row was read before the asOf it is shown with.
        for (const row of state!.rows.values()) assert.ok(row.readAt >= state!.asOf, row.name);
      }
    });
    const seen = JSON.stringify(Object.fromEntries(calls));
    // Read at every other pass: 1 s old, a read waits; 2 s old, it is due.
    assert.deepEqual(asOfs, asOfs.map((_, i) => (i + 1) * 1_000 - ((i + 1) % 2) * 1_000));
    // The minutes' counters with the counts (before, 10 tasks × 30 passes).
    assert.equal(calls.get("mget"), tasks.length * 15, seen);
    assert.equal(calls.get("zcard"), tasks.length * 15 * 2, seen);
  }, { rereadMs: 1_500 });
});

Deno.test("with reads of different ages waiting, the asOf is the oldest of them", async () => {
  await withKeeper(10, 400, async ({ source, keeper, tasks, at }) => {
    const start = at();
    const asOfAt = async (t: number, trimmed: string[] = []) => {
      keeper.take({ ...takenAndFinished(tasks, `new-${t}`, at(1_000)), trimmed });
      await keeper.pass();
      return (await source.boardStore.feed.readLiveSummary())!.asOf - start;
    };
    // task-0's entries trimmed at 1 s: read whole then; the others wait (read at 0).
    assert.equal(await asOfAt(1, ["task-0"]), 0);
    assert.equal(await asOfAt(2), 0);
    // The others read (3 s old); task-0's events wait on its read of 1 s, not the others' of 3 s.
    assert.equal(await asOfAt(3), 1_000);
    assert.equal(await asOfAt(4), 3_000, "task-0 read; the others wait on 3 s");
  }, { rereadMs: 2_500 });
});

Deno.test("this board's own change is read at the next pass, which leaves no task waiting", async () => {
  await withKeeper(10, 400, async ({ client, source, keeper, tasks, at }) => {
    const feed = source.boardStore.feed;
    const [before] = await feed.readLiveRows(["task-3"]);
    // Every task moved 1 s after its read: their events wait.
    const moved = at(1_000);
    keeper.take(takenAndFinished(tasks, "new-1", moved));
    await keeper.pass();
    assert.equal((await feed.readLiveSummary())!.asOf, moved - 1_000);
    // This board cleans one of task-3's finished jobs: no event; the others moved again.
    await client.sendCommand(["ZREMRANGEBYRANK", "taskora:{task-3}:completed", "0", "0"]);
    keeper.changed("task-3");
    keeper.take(takenAndFinished(tasks, "new-2", at(100)));
    const calls = await commandsOf(client, () => keeper.pass());
    const [row] = await feed.readLiveRows(["task-3"]);
    assert.equal(row!.stats.completed, before!.stats.completed - 1, "the clean shows at once");
    assert.equal((await feed.readLiveSummary())!.asOf, at(), "after the change: every task read");
    assert.equal(calls.get("mget"), tasks.length, JSON.stringify(Object.fromEntries(calls)));
    // A change that names no task (a bulk step's end) leaves none waiting either.
    keeper.take(takenAndFinished(tasks, "new-3", at(1_000)));
    keeper.changed();
    await keeper.pass();
    assert.equal((await feed.readLiveSummary())!.asOf, at());
  }, { rereadMs: 1_500 });
});

Deno.test("on a loaded machine, a pass that takes long leaves no task waiting: the state stays within the readers' window", async () => {
  // Each read of the queues takes 600 ms: with a task's events waiting, the asOf one pass
  // wrote would be 2.6 s old by the time the next one has written, near the 3 s window.
  await withKeeper(10, 400, async ({ source, keeper, tasks, at }) => {
    // The first pass began at the asOf it wrote.
    let written = (await source.boardStore.feed.readLiveSummary())!.asOf;
    let pass = written;
    for (let t = 1; t <= 10; t++) {
      // The feed's passes begin a pass period apart (the last took less).
      at(pass + 1_000 - at());
      pass = at();
      keeper.take(takenAndFinished(tasks, `new-${t}`, pass));
      await keeper.pass();
      // What readers took until this pass had written.
      assert.ok(at() - written <= 1_600, `${at() - written} ms old at pass ${t}`);
      written = (await source.boardStore.feed.readLiveSummary())!.asOf;
      assert.equal(written, pass, `pass ${t} read every task that moved`);
    }
  }, { rereadMs: 1_500, readMs: 600 });
});
