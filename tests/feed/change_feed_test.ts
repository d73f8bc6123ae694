/**
 * The change feed against a real redis-server: it runs on the leader while
 * someone needs it, saves the last ids after its consumers took a batch, a
 * new leader resumes from them (nothing lost, nothing before them again),
 * and with no need it reads nothing. Fake timers: the lease's turns and the
 * passes move only when the test ticks.
 */

import assert from "node:assert/strict";
import { ChangeFeed, type FeedConsumer } from "../../src/feed/change_feed.ts";
import { Leadership, leaseOf } from "../../src/leadership.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { GATHER_MS } from "../../src/source/redis/event_reader.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { TaskEvent, TaskSource } from "../../src/source/types.ts";
import type { FeedStore } from "../../src/store/feed.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { sourceWith } from "../helpers/source_with.ts";
import { waitFor } from "../helpers/wait_for.ts";

const TASKS = ["email", "image"];

/** A consumer that keeps what it was given, and counts the batches. */
function recorder(): FeedConsumer & { events: TaskEvent[]; batches: number } {
  const kept = {
    events: [] as TaskEvent[],
    batches: 0,
    take: (batch: { events: TaskEvent[] }) => {
      kept.batches++;
      kept.events.push(...batch.events);
    },
  };
  return kept;
}

/** A board's feed on `url`: its own source and leadership on the shared fake timers. */
function feedOn(url: string, timers: FakeTimers, consumer: FeedConsumer) {
  const source = new RedisTaskSource({ url, tasks: TASKS }, timers);
  const leadership = new Leadership(leaseOf(source.boardStore, "board"), { timers });
  const feed = new ChangeFeed({
    source,
    store: source.boardStore.feed,
    leadership,
    timers,
    consumers: [consumer],
  });
  return {
    source,
    feed,
    leadership,
    async close() {
      await feed.close();
      await leadership.close();
      await source.close();
    },
  };
}

/** The feed of a board no other shares its store with (no lease: it always leads). */
function loneFeed(
  source: TaskSource,
  store: FeedStore,
  timers: FakeTimers,
  consumer: FeedConsumer,
): ChangeFeed {
  return new ChangeFeed({
    source,
    store,
    leadership: new Leadership(null, { timers }),
    timers,
    consumers: [consumer],
  });
}

Deno.test("a new leader's feed resumes from the ids the last one saved: nothing lost, nothing again", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const add = (task: string, jobId: string) =>
    client.sendCommand([
      "XADD",
      `taskora:{${task}}:events`,
      "*",
      "event",
      "waiting",
      "jobId",
      jobId,
    ]);
  const first = recorder();
  const a = feedOn(redis.url, timers, first);
  try {
    a.feed.need();
    // Its first read (empty after a blocking read's timeout) says it reads from its start on.
    await waitFor(() => first.batches > 0, { what: "the first board to lead and read" });
    const e1 = String(await add("email", "e1"));
    const i1 = String(await add("image", "i1"));
    // Their own ids, not only two ids: a stream whose entry came in a later batch is saved at the
    // tail's start until a pass covers that batch (the next leader then read it again).
    await waitFor(async () => {
      await timers.tick(1_000);
      const saved = await a.source.boardStore.feed.readFeedPositions();
      return saved.get("email") === e1 && saved.get("image") === i1;
    }, { what: "the ids of both entries to be saved" });
    assert.deepEqual(first.events.map((event) => event.jobId).sort(), ["e1", "i1"]);
    await a.close(); // gives the lease back

    // Written while no feed ran.
    await add("email", "e2");
    await add("image", "i2");
    const second = recorder();
    const b = feedOn(redis.url, timers, second);
    try {
      b.feed.need();
      await waitFor(() => second.events.length >= 2, { what: "the new leader to read on" });
      assert.deepEqual(second.events.map((event) => event.jobId).sort(), ["e2", "i2"]);
    } finally {
      await b.close();
    }
  } finally {
    await a.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("a busy feed saves its ids once a pass, not once a batch; a stop saves none past its last pass", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, tasks: TASKS }, timers);
  const taken = recorder();
  const feed = loneFeed(source, source.boardStore.feed, timers, taken);
  /** Writes one entry and waits for its batch; `gathering`: the tail waits in its pause. */
  const batchOf = async (jobId: string, gathering: boolean) => {
    const before = taken.batches;
    await client.sendCommand([
      "XADD",
      "taskora:{email}:events",
      "*",
      "event",
      "active",
      "jobId",
      jobId,
    ]);
    // After a batch the tail waits a gathering pause of the board's clock before reading on.
    if (gathering) await timers.tick(GATHER_MS);
    await waitFor(() => taken.batches > before && taken.events.at(-1)?.jobId === jobId, {
      what: `${jobId}'s batch`,
    });
  };
  try {
    feed.need();
    await waitFor(() => taken.batches > 0, { what: "the feed's first read" });
    const calls = await commandsOf(client, async () => {
      // Four batches (the last three a gathering pause apart), then the pass at 1 s.
      for (let i = 0; i < 4; i++) await batchOf(`e${i}`, i > 0);
      await timers.tick(1_000);
    });
    const seen = JSON.stringify(Object.fromEntries(calls));
    // Four batches, one pass: one HSET of the ids (before, one a batch).
    assert.equal(calls.get("hset"), 1, seen);
    const [[, id]] = await source.boardStore.feed.readFeedPositions();
    // The pass's tick ended the last pause: the tail blocks in XREAD again.
    await batchOf("e4", false);
    await feed.close();
    // Taken after the last pass began, e4 is not kept by the consumers' passes: the next run
    // reads it again (the live state learns that its task moved).
    const [[, last]] = await source.boardStore.feed.readFeedPositions();
    assert.equal(last, id, "the stop saved no id past the last pass");
  } finally {
    await feed.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("a feed nobody needs reads nothing; one whose need ran out stops", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const a = feedOn(redis.url, timers, recorder());
  try {
    const idle = await commandsOf(client, () => timers.tick(65_000));
    assert.equal(totalCalls(idle), 0, `commands: ${JSON.stringify(Object.fromEntries(idle))}`);
    assert.equal(a.feed.running, false);

    a.feed.need();
    await waitFor(() => a.feed.running, { what: "the feed to start once needed" });
    // The need lasts 30 s on this board, and in the store until the time it notes, on the
    // boards' clock: the key's TTL, in Redis's own time, only clears it. Past that time a pass
    // finds no need and stops, though the key is still there.
    await timers.tick(29_000);
    assert.equal(a.feed.running, true, "the store still says someone needs it");
    await timers.tick(2_000);
    assert.equal(await client.exists("taskora:board:feed:demand"), 1, "the key outlives the need");
    await waitFor(async () => {
      await timers.tick(5_000);
      return !a.feed.running;
    }, { what: "the feed to stop once nobody needs it" });
  } finally {
    await a.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("over a source without stream ids, a feed keeps its events while the source does not answer", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource();
  let down = false;
  const listTasks = source.listTasks.bind(source);
  source.listTasks = () => down ? Promise.reject(new Error("not reachable")) : listTasks();
  const consumer = recorder();
  const feed = loneFeed(source, source.boardStore.feed!, timers, consumer);
  try {
    feed.need();
    await waitFor(() => feed.running, { what: "the feed to start once needed" });
    down = true;
    source.store.enqueue("mail", { id: "m1", data: {} });
    // Its batches fail, nothing uncaught: a rejection would fail this test.
    await timers.tick(3_000);
    assert.equal(consumer.events.length, 0);
    down = false;
    await waitFor(async () => {
      await timers.tick(1_000);
      return consumer.events.some((event) => event.jobId === "m1");
    }, { what: "the event held back, once the source answers" });
  } finally {
    await feed.close();
    await source.close();
  }
});

Deno.test("a follower whose feed is always needed (the history) keeps competing, and takes over long after its start", async () => {
  const timers = new FakeTimers();
  const source = createMemorySource({ simulate: false, now: () => timers.now() });
  const feedOf = (holder: string) => {
    const leadership = new Leadership(leaseOf(source.boardStore, "board"), { timers, holder });
    const feed = new ChangeFeed({
      source,
      store: source.boardStore.feed!,
      leadership,
      timers,
      consumers: [recorder()],
      alwaysNeeded: true,
    });
    return { feed, leadership };
  };
  const first = feedOf("first");
  await timers.tick(1_000);
  const second = feedOf("second");
  try {
    await waitFor(async () => (await timers.tick(1_000), first.feed.running), {
      what: "the first feed to lead and run",
    });
    // Far past the lease's keepMs (60 s) since the follower last asked for itself.
    for (let s = 0; s < 300; s++) await timers.tick(1_000);
    assert.equal(second.feed.running, false, "one feed runs");
    await first.feed.close();
    await first.leadership.close(); // gives the lease back, as a dead leader's runs out
    await waitFor(async () => (await timers.tick(1_000), second.feed.running), {
      what: "the follower to take over",
    });
  } finally {
    await first.feed.close();
    await first.leadership.close();
    await second.feed.close();
    await second.leadership.close();
    await source.close();
  }
});

Deno.test("a start while the last run still stops waits for it: its consumers hear stopped, then started", async () => {
  const timers = new FakeTimers();
  const memory = createMemorySource({ simulate: false, now: () => timers.now() });
  // A run's tail ends only when the test lets it (a blocking read ends when it ends): its stop
  // waits for it.
  const tailEnds = Promise.withResolvers<void>();
  const source = sourceWith(memory, {
    tailEvents: async (_from, _take, signal) => {
      await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      await tailEnds.promise;
    },
  });
  const told: string[] = [];
  const consumer: FeedConsumer = {
    take: () => {},
    started: () => Promise.resolve(void told.push("started")),
    stopped: () => void told.push("stopped"),
  };
  const feed = loneFeed(source, memory.boardStore.feed!, timers, consumer);
  try {
    feed.need();
    await timers.tick(1_000);
    assert.deepEqual([feed.running, told], [true, ["started"]]);
    // The need lapses: a pass stops the run, whose tail has not ended yet.
    await timers.tick(31_000);
    assert.deepEqual([feed.running, told], [false, ["started"]]);

    // Needed again while that stop waits: the new run starts once it ended, not before.
    feed.need();
    await timers.tick(1_000);
    assert.deepEqual(told, ["started"], "no start while the last run stops");
    tailEnds.resolve();
    await waitFor(() => feed.running && told.length === 3, { what: "the feed to run again" });
    assert.deepEqual(told, ["started", "stopped", "started"]);
  } finally {
    tailEnds.resolve();
    await feed.close();
    await memory.close();
  }
});

Deno.test("a run's passes wait for its tail to catch up only when a consumer took back what the entries tell", async () => {
  const timers = new FakeTimers();
  const memory = createMemorySource({ simulate: false, now: () => timers.now() });
  // A tail that never reaches the end of its streams: a long lapse's backlog, still being read.
  const source = sourceWith(memory, {
    tailEvents: (_from, _take, signal) =>
      new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
  });
  const passesWhen = async (tookBack: boolean) => {
    let passes = 0;
    const feed = loneFeed(source, memory.boardStore.feed!, timers, {
      take: () => {},
      started: () => Promise.resolve(tookBack),
      pass: () => Promise.resolve(void passes++),
    });
    try {
      feed.need();
      for (let tick = 0; tick < 3; tick++) await timers.tick(1_000);
      assert.equal(feed.running, true);
      return passes;
    } finally {
      await feed.close();
    }
  };
  try {
    assert.equal(await passesWhen(true), 0, "rows taken back wait for the entries since their ids");
    assert.ok(await passesWhen(false) > 0, "nothing taken back: the passes run beside the backlog");
  } finally {
    await memory.close();
  }
});
