/**
 * The event hub over the memory source: events reach every client, slow
 * clients are cut off, and connecting and leaving a thousand times leaves
 * nothing behind.
 */

import { epochClock, systemTimers } from "../../src/timers.ts";
import { resolveOptions } from "../../src/options.ts";
import assert from "node:assert/strict";
import { Hono } from "hono";
import { eventRoutes } from "../../src/api/events.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { createEventHub, type EventHubOptions } from "../../src/events/hub.ts";
import { createMemorySource, type MemorySource } from "../../src/source/memory/mod.ts";
import { NO_JOBS } from "../helpers/fixture.ts";
import { dataOf, isEvent, openStream } from "./sse_client.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { livePass, liveRow } from "../helpers/live_state.ts";
import { LIVE_FRAME_MAX_AGE_MS } from "../../src/feed/live_read.ts";

const present = createPresenter({ redact: ["password"], formatters: {} });
const URL_ = "http://board.test/api/events";

function hubApp(source: MemorySource, options: EventHubOptions = {}) {
  const hub = createEventHub(source, present, { store: source.boardStore, ...options });
  const app = new Hono().route(
    "/api",
    eventRoutes({ events: hub, timers: systemTimers, options: resolveOptions({}) }),
  );
  return { hub, fetch: (request: Request) => app.fetch(request) };
}

/** A memory store with one job of `mail`, counting the reads of counts made through it. */
function countingReads() {
  const source = createMemorySource();
  source.store.enqueue("mail", { id: "m1", data: {} });
  let reads = 0;
  const getStats = source.getStats.bind(source);
  source.getStats = (tasks) => {
    reads++;
    return getStats(tasks);
  };
  return { source, reads: () => reads };
}

const tick = (ms = 0) => new Promise((resolve) => setTimeout(resolve, ms));

Deno.test("a memory store's events reach every client, presented", async () => {
  const source = createMemorySource();
  const { hub, fetch } = hubApp(source);
  const streams = await Promise.all([1, 2, 3].map(() => openStream(fetch, URL_)));
  try {
    source.store.enqueue("mail", { id: "m1", data: {} });
    source.store.emit("mail", "completed", "m1", {
      result: '{"password":"hunter2","sent":true}',
      duration: "7",
    });
    for (const stream of streams) {
      const frame = await stream.waitFor(isEvent("job:completed"));
      assert.deepEqual(dataOf(frame), {
        id: "m1",
        task: "mail",
        at: dataOf(frame).at,
        result: { password: "[REDACTED]", sent: true },
        duration: 7,
      });
      await stream.waitFor(isEvent("job:waiting", (d) => d.id === "m1"));
    }
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
    await hub.close();
    await source.close();
  }
});

/** Counts the stats polls: each one lists the tasks first. */
function countPolls(source: MemorySource): { readonly count: number } {
  const polls = { count: 0 };
  const listTasks = source.listTasks.bind(source);
  source.listTasks = () => {
    polls.count++;
    return listTasks();
  };
  return polls;
}

Deno.test("a client gets the retry hint, then stats:update with totals, every statsIntervalMs", async () => {
  const source = createMemorySource();
  source.store.enqueue("mail", { id: "m1", data: {} });
  const polls = countPolls(source);
  const timers = new FakeTimers();
  const { hub, fetch } = hubApp(source, { statsIntervalMs: 100, timers });
  const stream = await openStream(fetch, URL_);
  try {
    assert.equal(stream.response.headers.get("content-type"), "text/event-stream");
    assert.equal(stream.response.headers.get("cache-control"), "no-cache");
    assert.equal(stream.response.headers.get("x-accel-buffering"), "no");
    await timers.tick(0);
    await stream.waitFor(() => true);
    assert.equal(stream.frames[0].retry, 3000);
    const first = await stream.waitFor(isEvent("stats:update"));
    const stats = dataOf(first);
    assert.equal(stats.connected, true);
    const [mail] = stats.tasks as { retryingAsOf: number }[];
    assert.ok(mail.retryingAsOf <= Date.now(), "the memory source counts exactly: as of now");
    assert.deepEqual(stats.tasks, [{
      name: "mail",
      stats: { ...NO_JOBS, waiting: 1 },
      retryingAsOf: mail.retryingAsOf,
    }]);
    assert.equal((stats.totals as Record<string, number>).waiting, 1);
    assert.equal(polls.count, 1, "the first client's poll, at once");
    await timers.tick(99);
    assert.equal(polls.count, 1, "no poll before statsIntervalMs");
    await timers.tick(1);
    assert.equal(polls.count, 2);
    await timers.tick(1);
    await stream.waitFor(isEvent("stats:update"), stream.frames.indexOf(first) + 1);
    await timers.tick(99);
    assert.equal(polls.count, 3, "and again each statsIntervalMs");
  } finally {
    await stream.close();
    await hub.close();
  }
});

Deno.test("heartbeat comments come every heartbeatMs (15 s by default)", async () => {
  const source = createMemorySource();
  const timers = new FakeTimers();
  const { hub, fetch } = hubApp(source, { timers });
  const stream = await openStream(fetch, URL_);
  const pings = () => stream.frames.filter((frame) => frame.comment === "ping").length;
  try {
    await timers.tick(14_999);
    await stream.waitFor(isEvent("stats:update"));
    assert.equal(pings(), 0);
    await timers.tick(1);
    await stream.waitFor((frame) => frame.comment === "ping");
    await timers.tick(15_000);
    await waitFor(() => pings() === 2, { what: "the second ping" });
  } finally {
    await stream.close();
    await hub.close();
  }
});

Deno.test("?tasks=a,b keeps job events of those tasks only; stats stay complete", async () => {
  const source = createMemorySource();
  const timers = new FakeTimers();
  const { hub, fetch } = hubApp(source, { timers });
  const stream = await openStream(fetch, `${URL_}?tasks=a,b`);
  try {
    await timers.tick(0);
    await stream.waitFor(isEvent("stats:update"));
    for (const task of ["c", "a", "c", "b"]) source.store.emit(task, "active", `${task}-1`);
    await timers.tick(1);
    await stream.waitFor(isEvent("job:active", (d) => d.task === "b"));
    const seen = stream.frames.filter((f) => f.event === "job:active").map((f) => dataOf(f).task);
    assert.deepEqual(seen, ["a", "b"]);
    await timers.tick(3000);
    const stats = await stream.waitFor(
      isEvent("stats:update", (d) => (d.tasks as unknown[]).length === 3),
    );
    assert.ok(stats);
  } finally {
    await stream.close();
    await hub.close();
  }
});

Deno.test("a client that does not read is disconnected once its queue is full", async () => {
  const source = createMemorySource();
  const { hub, fetch } = hubApp(source, { maxQueue: 50 });
  const reader = await openStream(fetch, URL_);
  const stalled = await fetch(new Request(URL_)); // never read
  try {
    await waitFor(() => hub.state().clients === 2, { what: "both clients" });
    const blob = JSON.stringify({ pad: "x".repeat(2000) });
    for (let i = 0; i < 2000; i++) {
      source.store.emit("t", "progress", `j${i}`, { value: blob });
      if (i % 100 === 0) await tick();
    }
    await waitFor(() => hub.state().clients === 1, { what: "the stalled client cut off" });
    assert.ok(hub.state().queued <= 50);
    // The reading client got everything.
    await reader.waitFor(isEvent("job:progress", (d) => d.id === "j1999"));
    // The stalled one's stream ends once it is read.
    const body = await new Response(stalled.body).text();
    assert.ok(body.length < 2000 * 2000, "bounded");
  } finally {
    await reader.close();
    await hub.close();
  }
});

Deno.test("the source subscription outlives the last client by idleStopMs", async () => {
  const source = createMemorySource();
  const timers = new FakeTimers();
  const { hub, fetch } = hubApp(source, { idleStopMs: 100, timers });
  try {
    const one = await openStream(fetch, URL_);
    await timers.tick(0);
    // Once the first stats frame is out, no flush is pending: the stats poll and the heartbeat.
    await one.waitFor(isEvent("stats:update"));
    assert.deepEqual(hub.state(), { clients: 1, timers: 2, subscribed: true, queued: 0 });
    await one.close();
    await waitFor(() => hub.state().clients === 0, { what: "no client left" });
    assert.deepEqual(hub.state(), { clients: 0, timers: 1, subscribed: true, queued: 0 });
    await timers.tick(99);
    assert.equal(hub.state().subscribed, true, "kept until idleStopMs has passed");
    const two = await openStream(fetch, URL_);
    await timers.tick(0);
    // It gets the last stats frame at once, then the fresh poll's.
    const last = await two.waitFor(isEvent("stats:update"));
    await two.waitFor(isEvent("stats:update"), two.frames.indexOf(last) + 1);
    assert.equal(hub.state().timers, 2, "the idle stop was cancelled");
    await timers.tick(1000);
    assert.equal(hub.state().subscribed, true, "a client is back: no idle stop");
    await two.close();
    await waitFor(() => hub.state().clients === 0, { what: "no client left" });
    await timers.tick(99);
    assert.equal(hub.state().subscribed, true);
    await timers.tick(1);
    assert.deepEqual(hub.state(), { clients: 0, timers: 0, subscribed: false, queued: 0 });
  } finally {
    await hub.close();
  }
});

Deno.test("1,000 connect/disconnect cycles leave no client, timer or listener behind", async () => {
  const source = createMemorySource();
  const { hub, fetch } = hubApp(source, { idleStopMs: 0 });
  try {
    for (let i = 0; i < 1000; i++) {
      const stream = await openStream(fetch, URL_);
      await stream.waitFor(() => true);
      assert.equal(hub.state().subscribed, true);
      source.store.emit("t", "active", "j");
      await stream.close();
    }
    await waitFor(() => hub.state().clients === 0, { what: "no client left" });
    assert.deepEqual(hub.state(), { clients: 0, timers: 0, subscribed: false, queued: 0 });
  } finally {
    await hub.close();
  }
});

Deno.test("1,000 connect/disconnect cycles leave the heap where it was (after a full GC)", async () => {
  const probe = new URL("./cycles_probe.ts", import.meta.url).pathname;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--expose-gc", probe, "1000"],
    stderr: "inherit",
  }).output();
  assert.ok(output.success);
  const { before, after, state } = JSON.parse(new TextDecoder().decode(output.stdout));
  assert.deepEqual(state, { clients: 0, timers: 0, subscribed: false, queued: 0 });
  const grown = after - before;
  assert.ok(grown < 1024 * 1024, `heap grew ${grown} bytes over 1,000 cycles`);
  console.log(`heap before ${before}, after ${after} (${grown >= 0 ? "+" : ""}${grown} bytes)`);
});

Deno.test("closing the hub ends every stream", async () => {
  const source = createMemorySource();
  const { hub, fetch } = hubApp(source);
  const streams = await Promise.all([1, 2].map(() => openStream(fetch, URL_)));
  await Promise.all(streams.map((stream) => stream.waitFor(() => true)));
  await hub.close();
  await Promise.all(streams.map((stream) => stream.ended));
  assert.deepEqual(hub.state(), { clients: 0, timers: 0, subscribed: false, queued: 0 });
  const late = await openStream(fetch, URL_);
  await late.ended;
});

Deno.test("stats polls reread only tasks with events, and every task each fullStatsEveryMs", async () => {
  const source = createMemorySource();
  source.store.enqueue("mail", { id: "m1", data: {} });
  source.store.enqueue("pdf", { id: "p1", data: {} });
  const asked: string[][] = [];
  const getStats = source.getStats.bind(source);
  source.getStats = (tasks) => {
    asked.push(tasks);
    return getStats(tasks);
  };
  const timers = new FakeTimers();
  const { hub, fetch } = hubApp(source, { statsIntervalMs: 20, fullStatsEveryMs: 1000, timers });
  const streams = await Promise.all(Array.from({ length: 100 }, () => openStream(fetch, URL_)));
  try {
    await timers.tick(0);
    assert.deepEqual(asked, [["mail", "pdf"]], "the first poll reads every task");
    // Several polls go by with no event: no read at all, whatever the number of clients.
    await timers.tick(4 * 20);
    await waitFor(() => streams[0].frames.filter(isEvent("stats:update")).length >= 5, {
      what: "five stats frames",
    });
    assert.equal(asked.length, 1);
    source.store.enqueue("pdf", { id: "p2", data: {} });
    await timers.tick(20);
    assert.deepEqual(asked[1], ["pdf"], "only the task that had an event");
    await timers.tick(20);
    const frame = await streams[0].waitFor(
      isEvent("stats:update", (d) => (d.totals as { waiting: number }).waiting === 3),
    );
    assert.ok(frame);
    assert.equal(asked.length, 2);
    // Polls ran at 0 (every task), 20 … 120; the next every-task one is at 1000.
    await timers.tick(1000 - 6 * 20 - 1);
    assert.equal(asked.length, 2, "no read before fullStatsEveryMs");
    await timers.tick(1);
    assert.deepEqual(asked[2], ["mail", "pdf"], "every task once fullStatsEveryMs has passed");
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
    await hub.close();
  }
});

Deno.test("boards on one store read the counts once: a follower sends the stats frame the leader shared, while it is fresh", async () => {
  const { source, reads } = countingReads();
  const timers = new FakeTimers();
  const leader = hubApp(source, { statsIntervalMs: 1000, timers, leads: () => true });
  const follower = hubApp(source, { statsIntervalMs: 1000, timers, leads: () => false });
  const led = await openStream(leader.fetch, URL_);
  const followed = await openStream(follower.fetch, URL_);
  try {
    await timers.tick(0);
    const fromLeader = dataOf(await led.waitFor(isEvent("stats:update")));
    const fromFollower = dataOf(await followed.waitFor(isEvent("stats:update")));
    assert.deepEqual(fromFollower, fromLeader, "the leader's frame, as it shared it");
    assert.equal(reads(), 1, "only the leader read the counts");

    // The leader goes: once its frame is over two intervals old, the follower reads for itself.
    await led.close();
    await leader.hub.close();
    const before = reads();
    await timers.tick(2000);
    assert.equal(reads(), before, "still fresh");
    await timers.tick(1000);
    assert.equal(reads(), before + 1);
  } finally {
    await followed.close();
    await follower.hub.close();
  }
});

Deno.test("a stats poll sends the live state while it is at most one lease period old, as of its asOf, reading no counts", async () => {
  const { source, reads } = countingReads();
  const timers = new FakeTimers();
  const { hub, fetch } = hubApp(source, { statsIntervalMs: 1000, timers });
  // On a clock made after the hub's, never behind it. The leader's counts differ from the
  // store's: the frame tells which were sent.
  const asOf = epochClock(timers)();
  await source.boardStore.feed!.writeLiveState(livePass(asOf, [liveRow("mail", { waiting: 7 })]));
  const stream = await openStream(fetch, URL_);
  try {
    await timers.tick(0);
    const live = dataOf(await stream.waitFor(isEvent("stats:update")));
    assert.equal((live.totals as { waiting: number }).waiting, 7);
    assert.equal(live.at, asOf, "as of when the leader last brought it up to date");
    await timers.tick(1000);
    const again = await waitFor(() => stream.frames.filter(isEvent("stats:update"))[1], {
      what: "the second frame",
    });
    assert.equal(dataOf(again).at, asOf, "one interval old: still sent as it is");
    // A pass slower than the interval (a loaded machine): the state is sent, saying its age.
    await timers.tick(LIVE_FRAME_MAX_AGE_MS - 1000);
    const slow = await waitFor(
      () => stream.frames.filter(isEvent("stats:update"))[LIVE_FRAME_MAX_AGE_MS / 1000],
      { what: "the frame a lease period on" },
    );
    assert.equal(dataOf(slow).at, asOf, "a lease period old: still sent as it is");
    assert.equal(reads(), 0);
    // The leader is gone: the next poll reads the counts itself.
    await timers.tick(1000);
    const read = await stream.waitFor(
      isEvent("stats:update", (d) => (d.totals as { waiting: number }).waiting === 1),
    );
    assert.ok(dataOf(read).at as number > asOf);
    assert.equal(reads(), 1);
  } finally {
    await stream.close();
    await hub.close();
  }
});

Deno.test("a live state written before this board's last change is not sent: the counts are read", async () => {
  const { source, reads } = countingReads();
  const timers = new FakeTimers();
  const asOf = epochClock(timers)();
  await source.boardStore.feed!.writeLiveState(livePass(asOf, [liveRow("mail", { waiting: 7 })]));
  const { hub, fetch } = hubApp(source, { timers, liveSeen: (at) => at > asOf });
  const stream = await openStream(fetch, URL_);
  try {
    await timers.tick(0);
    const frame = dataOf(await stream.waitFor(isEvent("stats:update")));
    assert.equal((frame.totals as { waiting: number }).waiting, 1, "the store's count");
    assert.equal(reads(), 1);
  } finally {
    await stream.close();
    await hub.close();
  }
});
