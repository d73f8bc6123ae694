/**
 * What the leader's backlog sample of a minute costs Redis at 200 tasks,
 * counted by Redis itself (`INFO commandstats`, the commands scripts run
 * included): from a fresh live state, the index and the rows (two HMGETs),
 * one ZCOUNT per task with delayed or retrying jobs and the write; read
 * directly (no live state), the counts, the due-later count and the minute's
 * counters of every task. Both take the same samples. Before, every minute
 * read every task directly, live state or not (about 2,600 commands here).
 */

import assert from "node:assert/strict";
import { type BacklogSample, minuteOf } from "../../src/contract/forecast.ts";
import { taskRate } from "../../src/contract/latency.ts";
import { Leadership } from "../../src/leadership.ts";
import { startBacklogSampler } from "../../src/samplers/backlog.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { backlogKey, metricKey } from "../../src/source/wire/keys.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { livePass, liveRow } from "../helpers/live_state.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { jobCommands, sendPipelined } from "../helpers/wire_writer.ts";

const TASKS = Array.from({ length: 200 }, (_, i) => `task-${String(i).padStart(3, "0")}`);
/** The tasks with delayed jobs: one due within the forecast's hour, one after it. */
const HELD = TASKS.slice(0, 5);
const HOUR = 3_600_000;

/** Two waiting jobs a task; the held ones a job due in a minute and one in 3 h; 4 finished this minute. */
function* fleet(now: number): Generator<string[]> {
  for (const task of TASKS) {
    for (let i = 0; i < 2; i++) yield* jobCommands({ task, state: "waiting" }).commands;
    yield ["SET", metricKey(task, "completed", minuteOf(now)), "4"];
  }
  for (const task of HELD) {
    yield* jobCommands({ task, state: "delayed", ts: now, delay: 60_000 }).commands;
    yield* jobCommands({ task, state: "delayed", ts: now, delay: 3 * HOUR }).commands;
  }
}

/**
 * A throwaway Redis, a source over `TASKS` on fake timers, and the leader's
 * backlog sampler on `clock`; `done` stops them all.
 */
async function sampling(clock: () => number) {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, tasks: TASKS }, timers);
  const sampler = startBacklogSampler({
    source,
    store: source.boardStore,
    leadership: new Leadership(null),
    timers,
    clock,
  });
  const done = async () => {
    sampler.close();
    await source.close();
    await client.close();
    await redis.stop();
  };
  return { client, source, sampler, done };
}

Deno.test("a minute's backlog sample from a fresh live state reads the tasks with delayed jobs only, and takes the same samples", async () => {
  // Within a minute, not at its end: both samples fall in the same one.
  const now = minuteOf(Date.now()) + 1_000;
  const { client, source, sampler, done } = await sampling(() => now);
  const samplesOf = async () => {
    const samples = new Map<string, BacklogSample | null>();
    for (const task of [...HELD, TASKS[100]]) {
      samples.set(task, (await source.boardStore.readBacklogSamples(task, [minuteOf(now)]))[0]);
    }
    // The next sample of this minute writes afresh rather than merging into this one.
    await client.del(backlogKey(minuteOf(now)));
    return samples;
  };
  try {
    await sendPipelined(client as never, fleet(now), 1_000);
    // Someone looks at the board and no live state is kept: every task is read directly.
    await source.listTasks();
    const direct = await commandsOf(client, () => sampler.sample());
    const directSamples = await samplesOf();
    // The leader's live state of what Redis holds, as of now.
    const [snapshots, minutes] = await Promise.all([
      source.getQueueSnapshots(TASKS),
      source.getThroughputByTask(TASKS, { count: 60 }),
    ]);
    const rows = TASKS.map((name) => {
      const { stats, heads } = snapshots.get(name)!;
      return liveRow(name, stats, { heads, rate: taskRate(minutes.get(name)!), readAt: now });
    });
    await source.boardStore.feed.writeLiveState(livePass(now, rows));
    const live = await commandsOf(client, () => sampler.sample());
    const liveSamples = await samplesOf();

    console.log(
      `a backlog sample at ${TASKS.length} tasks: ${totalCalls(direct)} commands read directly, ` +
        `${totalCalls(live)} from the live state`,
    );
    const seen = JSON.stringify({ live: Object.fromEntries(live) });
    assert.ok(totalCalls(direct) > TASKS.length * 9, JSON.stringify(Object.fromEntries(direct)));
    assert.equal(live.get("zcount"), HELD.length, seen);
    assert.equal(totalCalls(live, ["zcard", "llen", "mget", "evalsha"]), 0, seen);
    assert.ok(totalCalls(live) <= HELD.length + 6, seen);
    assert.deepEqual(liveSamples, directSamples);
    assert.deepEqual(directSamples.get(HELD[0]), { at: now, backlog: 3, finishedBefore: 4 });
    assert.deepEqual(directSamples.get(TASKS[100]), { at: now, backlog: 2, finishedBefore: 4 });
  } finally {
    await done();
  }
});

Deno.test("a task none of whose delayed jobs falls due after the horizon is not counted again while its row stands", async () => {
  let now = minuteOf(Date.now()) + 1_000;
  const { client, source, sampler, done } = await sampling(() => now);
  try {
    // Every task a job due in a minute: none after the forecast's hour.
    const soon = function* () {
      for (const task of TASKS) {
        yield* jobCommands({ task, state: "delayed", ts: now, delay: 60_000 }).commands;
      }
    };
    await sendPipelined(client as never, soon(), 1_000);
    const snapshots = await source.getQueueSnapshots(TASKS);
    const readAt = now;
    const rows = TASKS.map((name) => {
      const { stats, heads } = snapshots.get(name)!;
      return liveRow(name, stats, { heads, readAt });
    });
    const minute = async () => {
      await source.boardStore.feed.writeLiveState(livePass(now, rows));
      const calls = await commandsOf(client, () => sampler.sample());
      now += 60_000;
      return calls;
    };
    const first = await minute();
    assert.equal(first.get("zcount"), TASKS.length, "the first minute counts every held task");
    const next = await minute();
    assert.equal(next.get("zcount") ?? 0, 0, JSON.stringify(Object.fromEntries(next)));
    // A task moved: its row read again. It alone is counted again.
    rows[3] = { ...rows[3], readAt: now };
    const moved = await minute();
    assert.equal(moved.get("zcount"), 1, JSON.stringify(Object.fromEntries(moved)));
    const [sample] = await source.boardStore.readBacklogSamples(TASKS[0], [minuteOf(now - 60_000)]);
    assert.equal(sample?.backlog, 1, "the job due within the hour is backlog");
  } finally {
    await done();
  }
});

Deno.test("a board a request keeps watched after its feed stopped samples the state the feed wrote last, reading no task", async () => {
  // The overview's need keeps the feed 30 s, its request the board watched 60 s: a minute's
  // sample can come 30 s after the feed's last pass. Before, it read every task directly (277
  // commands at 20 tasks in `tests/bench/idle_board.ts`, most of an idle board's first minute).
  const now = minuteOf(Date.now()) + 50_000;
  const lastPass = now - 40_000;
  const { client, source, sampler, done } = await sampling(() => now);
  try {
    await sendPipelined(client as never, fleet(now), 1_000);
    const snapshots = await source.getQueueSnapshots(TASKS);
    const rows = TASKS.map((name) => {
      const { stats, heads } = snapshots.get(name)!;
      return liveRow(name, stats, { heads, readAt: lastPass });
    });
    await source.boardStore.feed.writeLiveState(livePass(lastPass, rows));
    // Someone looked at the board: it is watched.
    await source.listTasks();
    const calls = await commandsOf(client, () => sampler.sample());
    const seen = JSON.stringify(Object.fromEntries(calls));
    assert.equal(totalCalls(calls, ["zcard", "llen", "mget", "evalsha"]), 0, seen);
    assert.ok(totalCalls(calls) <= HELD.length + 6, seen);
    const [sample] = await source.boardStore.readBacklogSamples(HELD[0], [minuteOf(lastPass)]);
    assert.deepEqual(sample, { at: lastPass, backlog: 3, finishedBefore: 0 });
  } finally {
    await done();
  }
});

Deno.test("a live state older than a sample period is no sample: a watched board reads directly", async () => {
  const now = minuteOf(Date.now()) + 50_000;
  const { client, source, sampler, done } = await sampling(() => now);
  try {
    await sendPipelined(client as never, fleet(now), 1_000);
    await source.boardStore.feed.writeLiveState(livePass(now - 61_000, [liveRow(TASKS[0], {})]));
    await source.listTasks();
    const calls = await commandsOf(client, () => sampler.sample());
    assert.ok(totalCalls(calls) > TASKS.length * 9, JSON.stringify(Object.fromEntries(calls)));
    const [sample] = await source.boardStore.readBacklogSamples(HELD[0], [minuteOf(now)]);
    assert.deepEqual(sample, { at: now, backlog: 3, finishedBefore: 4 });
  } finally {
    await done();
  }
});
