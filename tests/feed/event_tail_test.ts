/**
 * The Redis source's tail of every task's events stream (what the change
 * feed reads), against a real redis-server: from given ids, a batch at a
 * time; a stream trimmed past its id is named; a task without an id is read
 * from when the tail started; a resume looks for trims only in the streams
 * that moved; once caught up, entries written in the gathering pause after
 * a batch come in one read, and a stop does not wait for the pause.
 */

import assert from "node:assert/strict";
import { GATHER_MS, idAfter } from "../../src/source/redis/event_reader.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { EventBatch } from "../../src/source/types.ts";
import type { Timers } from "../../src/timers.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

const stream = (task: string) => `taskora:{${task}}:events`;

type Client = Awaited<ReturnType<typeof connectClient>>;

/**
 * A throwaway Redis, a client writing to it, and a Redis source over
 * `tasks` (every task, when not given) on `timers` (the runtime's, when not
 * given); `stop` ends the test's tail, and everything is stopped after `fn`.
 */
async function withTail(
  tasks: string[] | undefined,
  fn: (ctx: { client: Client; source: RedisTaskSource; stop: AbortController }) => Promise<void>,
  timers?: Timers,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = new RedisTaskSource({ url: redis.url, ...tasks ? { tasks } : {} }, timers);
  const stop = new AbortController();
  try {
    await fn({ client, source, stop });
  } finally {
    stop.abort();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("a tail reads on from the ids it is given, names a trimmed stream, and starts a new task at its own start", async () => {
  await withTail(["a", "b", "c"], async ({ client, source, stop }) => {
    const add = (task: string, id: string, event: string) =>
      client.sendCommand(["XADD", stream(task), id, "event", event, "jobId", `${task}-${id}`]);
    await add("a", "1000-0", "waiting");
    await add("a", "2000-0", "active");
    await add("a", "3000-0", "completed");
    // b's saved id was trimmed away: its first entry is newer.
    await add("b", "5000-0", "waiting");
    await add("b", "6000-0", "active");
    await client.sendCommand(["XTRIM", stream("b"), "MAXLEN", "1"]);
    // c has no saved id: what it wrote before the tail started is not read.
    await add("c", "1000-0", "waiting");

    const batches: EventBatch[] = [];
    const from = new Map([["a", "2000-0"], ["b", "5000-0"]]);
    const done = source.tailEvents(from, (batch) => {
      batches.push(batch);
      return Promise.resolve();
    }, stop.signal);
    const first = await waitFor(() => batches.find((batch) => batch.events.length > 0), {
      what: "the first batch with entries",
    });
    assert.deepEqual(first.trimmed, ["b"]);
    assert.deepEqual(
      first.events.map(({ task, event }) => `${task}:${event}`).sort(),
      ["a:completed", "b:active"],
    );
    const { c: start, ...given } = Object.fromEntries(first.positions);
    assert.deepEqual(given, { a: "3000-0", b: "6000-0" });
    // c, with no id given and no entry read, is followed from the tail's start: its position.
    assert.ok(/^\d+-0$/.test(start) && idAfter(start, "1000-0"), start);
    assert.equal(first.caughtUp, true, "one read reached the end of every stream");

    await add("c", "*", "active");
    const later = await waitFor(
      () => batches.find((batch) => batch.events.some((event) => event.task === "c")),
      { what: "c's entry written after the start" },
    );
    assert.deepEqual(later.events.map(({ task, event }) => `${task}:${event}`), ["c:active"]);
    assert.deepEqual(later.positions, new Map([["c", later.events[0].id!]]), "c's start, once");
    assert.deepEqual(later.trimmed, [], "a stream is checked once");
    stop.abort();
    await done;
  });
});

Deno.test("a batch whose taking failed is read again: the history's store away loses nothing", async () => {
  await withTail(["a"], async ({ client, source, stop }) => {
    await client.sendCommand(["XADD", stream("a"), "1000-0", "event", "completed", "jobId", "1"]);
    const taken: string[][] = [];
    let failures = 1;
    const done = source.tailEvents(new Map([["a", "0-0"]]), (batch) => {
      if (batch.events.length === 0) return Promise.resolve();
      taken.push(batch.events.map((event) => `${event.id}:${event.event}`));
      // The first taking fails, as a recorder's write to a store that went away.
      return failures-- > 0 ? Promise.reject(new Error("store away")) : Promise.resolve();
    }, stop.signal);
    await waitFor(() => taken.length >= 2, { what: "the batch read again after the failure" });
    assert.deepEqual(taken.slice(0, 2), [["1000-0:completed"], ["1000-0:completed"]]);
    stop.abort();
    await done;
  });
});

Deno.test("a tail resumed after a lapse looks for trims only in the streams that moved, and says when it caught up", async () => {
  const tasks = Array.from({ length: 20 }, (_, i) => `t${i}`);
  await withTail(tasks, async ({ client, source, stop }) => {
    const add = (task: string, id: string) =>
      client.sendCommand(["XADD", stream(task), id, "event", "active", "jobId", `${task}-${id}`]);
    for (const task of tasks) await add(task, "1000-0");
    // While no feed ran, two of the twenty moved; t1's saved id was trimmed away meanwhile.
    await add("t0", "2000-0");
    await add("t1", "2000-0");
    await client.sendCommand(["XTRIM", stream("t1"), "MAXLEN", "1"]);
    const from = new Map(tasks.map((task) => [task, task === "t1" ? "500-0" : "1000-0"]));
    const batches: EventBatch[] = [];
    let done: Promise<void> = Promise.resolve();
    const calls = await commandsOf(client, async () => {
      done = source.tailEvents(from, (batch) => {
        batches.push(batch);
        return Promise.resolve();
      }, stop.signal);
      await waitFor(() => batches.some((batch) => batch.caughtUp), {
        what: "the tail to catch up",
      });
    });
    const caughtUp = batches.find((batch) => batch.caughtUp)!;
    assert.deepEqual(caughtUp.events.map((event) => event.jobId).sort(), [
      "t0-2000-0",
      "t1-2000-0",
    ]);
    assert.deepEqual(caughtUp.trimmed, ["t1"]);
    // One XRANGE per stream that moved (before, one per stream given an id: 20).
    assert.equal(calls.get("xrange"), 2, JSON.stringify(Object.fromEntries(calls)));
    stop.abort();
    await done;
  });
});

Deno.test("a tail over no stream says at once that it caught up", async () => {
  await withTail(undefined, async ({ source, stop }) => {
    const batches: EventBatch[] = [];
    const done = source.tailEvents(new Map(), (batch) => {
      batches.push(batch);
      return Promise.resolve();
    }, stop.signal);
    const [first] = await waitFor(() => batches.length > 0 && batches, {
      what: "the tail's first batch",
    });
    assert.deepEqual([first.tasks, first.caughtUp], [[], true]);
    stop.abort();
    await done;
  });
});

/** Writes an `active` entry of `jobId` to `task`'s stream, at `id` (the server's clock when not given). */
const addActive = (client: Client, task: string, jobId: string, id = "*") =>
  client.sendCommand(["XADD", stream(task), id, "event", "active", "jobId", jobId]);

/**
 * Starts a tail from `from` over `source`, recording its batches, on a
 * board clock that stands still until the test ticks it; resolves once the
 * tail caught up.
 */
async function caughtUpTail(
  source: RedisTaskSource,
  from: Map<string, string>,
  stop: AbortController,
) {
  const batches: EventBatch[] = [];
  const done = source.tailEvents(from, (batch) => {
    batches.push(batch);
    return Promise.resolve();
  }, stop.signal);
  await waitFor(() => batches.some((batch) => batch.caughtUp), { what: "the catch-up" });
  const events = () => batches.flatMap((batch) => batch.events);
  return { batches, events, done };
}

Deno.test("entries written in the gathering pause after a batch come in one read: one XREAD, not one per entry", async () => {
  const timers = new FakeTimers();
  await withTail(["a", "b"], async ({ client, source, stop }) => {
    const tail = await caughtUpTail(source, new Map([["a", "0-0"], ["b", "0-0"]]), stop);
    await addActive(client, "a", "first");
    await waitFor(() => tail.events().length === 1, { what: "the first entry" });
    const before = tail.batches.length;
    // The board's clock stands still: the tail waits in its pause while these are written.
    const calls = await commandsOf(client, async () => {
      for (let i = 0; i < 5; i++) await addActive(client, i % 2 === 0 ? "a" : "b", `later-${i}`);
      await timers.tick(GATHER_MS);
      await waitFor(() => tail.events().length === 6, { what: "the five later entries" });
    });
    const later = tail.batches.slice(before).filter((batch) => batch.events.length > 0);
    assert.deepEqual(
      later.map((batch) => batch.events.map((event) => event.jobId)),
      [["later-0", "later-2", "later-4", "later-1", "later-3"]],
      "one batch",
    );
    // Before the pause: one XREAD a batch, each answered with the first entry written.
    assert.equal(calls.get("xread"), 1, JSON.stringify(Object.fromEntries(calls)));
    stop.abort();
    await tail.done;
  }, timers);
});

Deno.test("a backlog is read at full speed: a read that filled its count is followed at once, with no pause", async () => {
  await withTail(["a"], async ({ client, source, stop }) => {
    // More than two reads' worth (500 a stream) written before the tail starts.
    await Promise.all(
      Array.from({ length: 1_200 }, (_, i) => addActive(client, "a", `${i}`, `${i + 1}-0`)),
    );
    // The board's clock never moves: every read of the backlog comes without a pause.
    const tail = await caughtUpTail(source, new Map([["a", "0-0"]]), stop);
    assert.deepEqual(
      tail.batches.map((batch) => [batch.events.length, batch.caughtUp]),
      [[500, false], [500, false], [200, true]],
    );
    stop.abort();
    await tail.done;
  }, new FakeTimers());
});

Deno.test("a stop while the tail gathers returns at once, the board's clock standing still", async () => {
  const timers = new FakeTimers();
  await withTail(["a"], async ({ client, source, stop }) => {
    const tail = await caughtUpTail(source, new Map([["a", "0-0"]]), stop);
    await addActive(client, "a", "1");
    await waitFor(() => tail.events().length === 1, { what: "the entry" });
    let stopped = false;
    void tail.done.then(() => stopped = true);
    stop.abort();
    // No tick: a pause that did not end at the abort would hold the tail until the clock moved.
    await waitFor(() => stopped, { what: "the tail to stop during its pause" });
    assert.equal(timers.now(), 0);
  }, timers);
});
