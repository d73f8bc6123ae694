/**
 * The subscribers' reader and the change feed's tail share one connection:
 * when the tail takes over (the feed starts) or hands back (it stops),
 * every event the subscribers were not yet given still reaches them, once,
 * and the feed's consumers get only what follows their saved ids.
 *
 * Driven through a fake cluster pipeline (streams in memory, a settable
 * server clock) and a pause that only ends when its run stops, so each step
 * happens exactly where the test puts it.
 */

import assert from "node:assert/strict";
import { RedisEventReader } from "../../src/source/redis/event_reader.ts";
import type { EventBatch, TaskEvent } from "../../src/source/types.ts";

type Entry = [id: string, fields: string[]];

const order = (id: string) => id.split("-").map(Number);
const after = (a: string, b: string) => {
  const [am, as] = order(a);
  const [bm, bs] = order(b);
  return am > bm || (am === bm && as > bs);
};

/** Task a's stream and the server's clock, as the test sets them. */
function fakeServer() {
  const entries: Entry[] = [];
  const clock = { ms: 1000 };
  const answer = (command: readonly string[]) => {
    if (command[0] === "TIME") return [String(clock.ms / 1000), "0"];
    if (command[0] === "XRANGE") return entries.slice(0, 1);
    // One stream only: XREAD's last argument is its id.
    const newer = entries.filter(([entry]) => after(entry, command.at(-1)!));
    return newer.length > 0 ? [[command.at(-2), newer]] : null;
  };
  return {
    clock,
    answer,
    /** Writes an entry to task a's stream. */
    add(id: string, jobId: string) {
      entries.push([id, ["event", "progress", "jobId", jobId]]);
    },
  };
}

/** A reader over task "a" that polls (as on a cluster); each pause is told, and lasts until its run stops. */
function handoverReader() {
  const server = fakeServer();
  let pauses = 0;
  const waiting: Array<{ count: number; resolve: () => void }> = [];
  const reader = new RedisEventReader({
    createClient: null,
    pipeline: (commands) => Promise.resolve(commands.map(server.answer)),
    listTasks: () => Promise.resolve(["a"]),
    refreshTasks: () => Promise.resolve(["a"]),
    pause: (_ms, signal) => {
      pauses++;
      for (const waiter of waiting.filter((waiter) => pauses >= waiter.count)) waiter.resolve();
      return new Promise((resolve) => signal.addEventListener("abort", () => resolve()));
    },
  }, { pollMs: 10 });
  return {
    ...server,
    reader,
    /** Resolves once the reader has paused `more` more times (a run found nothing new). */
    paused(more = 1): Promise<void> {
      const count = pauses + more;
      return new Promise((resolve) => waiting.push({ count, resolve }));
    },
  };
}

/** Starts a tail from `from`, recording its batches. */
function startTail(reader: RedisEventReader, from: Map<string, string>) {
  const batches: EventBatch[] = [];
  const stop = new AbortController();
  const done = reader.tail(from, (batch) => {
    batches.push(batch);
    return Promise.resolve();
  }, stop.signal);
  return { batches, stop: () => (stop.abort(), done) };
}

const ids = (events: readonly TaskEvent[]) => events.map((event) => event.jobId);

/**
 * Subscribes (the subscribers' run starts at 1000 and finds nothing), writes an entry at 1500,
 * then lets the feed's tail take over at 2000 from `from` until it waits: what each side got.
 */
async function takeOver(from: Map<string, string>) {
  const { reader, clock, add, paused } = handoverReader();
  const seen: TaskEvent[] = [];
  let idle = paused();
  reader.subscribe((event) => seen.push(event));
  await idle;

  add("1500-0", "written-while-handing-over");
  clock.ms = 2000;
  idle = paused();
  const tail = startTail(reader, from);
  await idle; // the tail read what there was and waits
  await tail.stop();
  await reader.close();
  return { seen: ids(seen), batches: tail.batches };
}

Deno.test("an event written as the feed takes over reaches the subscribers; the feed gets what follows its saved id", async () => {
  const { seen, batches } = await takeOver(new Map([["a", "1200-0"]]));
  assert.deepEqual(seen, ["written-while-handing-over"]);
  assert.deepEqual(ids(batches.flatMap((batch) => batch.events)), ["written-while-handing-over"]);
});

Deno.test("an event of a stream the feed never saved, written as it takes over, reaches the subscribers but not the feed", async () => {
  const { seen, batches } = await takeOver(new Map());
  assert.deepEqual(seen, ["written-while-handing-over"]);
  assert.deepEqual(batches.flatMap((batch) => batch.events), [], "before the feed's start");
  // Its position is the tail's start (the server's clock then), not that event's id.
  assert.deepEqual(batches.flatMap((batch) => [...batch.positions]), [["a", "2000-0"]]);
});

Deno.test("an event written as the feed hands back reaches the subscribers once", async () => {
  const { reader, clock, add, paused } = handoverReader();
  const seen: TaskEvent[] = [];
  let idle = paused();
  reader.subscribe((event) => seen.push(event));
  await idle;
  add("1100-0", "before-the-takeover");
  clock.ms = 1200;
  idle = paused();
  const tail = startTail(reader, new Map());
  await idle;

  add("1500-0", "written-while-handing-back");
  clock.ms = 2000;
  idle = paused();
  await tail.stop();
  await idle; // the subscribers' own run read again, and waits

  assert.deepEqual(ids(seen), ["before-the-takeover", "written-while-handing-back"]);
  await reader.close();
});

/**
 * A blocking connection that `connects` only when told to (the first never
 * does) and whose XREAD blocks until it is destroyed when nothing is new.
 */
function blockingClient(
  server: ReturnType<typeof fakeServer>,
  connects: boolean,
  blocked: () => void,
) {
  const pending = new Set<(error: Error) => void>();
  const hang = () => new Promise<never>((_, reject) => pending.add(reject));
  let open = true;
  return {
    get isOpen() {
      return open;
    },
    get isReady() {
      return open && connects;
    },
    connect: () => connects ? Promise.resolve() : hang(),
    sendCommand: <T>(args: readonly string[]) => {
      const reply = server.answer(args);
      if (reply !== null) return Promise.resolve(reply as T);
      blocked();
      return hang();
    },
    close: () => Promise.resolve(),
    destroy() {
      open = false;
      for (const reject of pending) reject(new Error("destroyed"));
    },
    on: () => {},
    off: () => {},
  };
}

Deno.test("subscribers whose connection was not made yet when the feed takes over still get what was written since they came", async () => {
  const server = fakeServer();
  let made = 0;
  let connecting = () => {};
  const first = new Promise<void>((resolve) => connecting = resolve);
  let blocked = () => {};
  const reading = new Promise<void>((resolve) => blocked = resolve);
  const reader = new RedisEventReader({
    createClient: () => {
      if (made++ === 0) connecting();
      return blockingClient(server, made > 1, blocked);
    },
    pipeline: (commands) => Promise.resolve(commands.map(server.answer)),
    listTasks: () => Promise.resolve(["a"]),
    refreshTasks: () => Promise.resolve(["a"]),
  });
  const seen: TaskEvent[] = [];
  reader.subscribe((event) => seen.push(event));
  await first; // the subscribers' connection is being made, and is not yet

  server.add("1500-0", "written-while-connecting");
  server.clock.ms = 2000;
  const batches: EventBatch[] = [];
  const stop = new AbortController();
  const done = reader.tail(new Map(), (batch) => {
    batches.push(batch);
    return Promise.resolve();
  }, stop.signal);
  await reading; // the tail read what there was and blocks
  stop.abort();
  await done;

  assert.deepEqual(ids(seen), ["written-while-connecting"]);
  assert.deepEqual(batches.flatMap((batch) => batch.events), [], "before the feed's start");
  await reader.close();
});
