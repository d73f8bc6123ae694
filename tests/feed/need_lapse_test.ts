/**
 * The change feed's need lapses (the last browser closed, no alert rule, no
 * history recorder) and comes back: against a real redis-server, each job
 * event reaches the feed's consumer (the live state) once, those written
 * while no feed ran included, and each browser's subscription gets every
 * event written while it is subscribed, once: none from before it, none
 * twice across the feed's tail taking over the source's reader and handing
 * it back (a need lapsing with a browser subscribed, a browser opening while
 * the feed runs for nobody). Fake timers: the lease's turns, the feed's
 * passes and the reader's gathering pause after a batch move only when the
 * test ticks.
 */

import assert from "node:assert/strict";
import { ChangeFeed } from "../../src/feed/change_feed.ts";
import { Leadership } from "../../src/leadership.ts";
import { GATHER_MS } from "../../src/source/redis/event_reader.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { TaskEvent } from "../../src/source/types.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** The job ids of `events`, in the order given. */
const jobIds = (events: readonly TaskEvent[]) => events.map((event) => event.jobId);

Deno.test("across a lapse of the feed's need, every subscriber gets each event once, none missed", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, tasks: ["email"] }, timers);
  const taken: TaskEvent[] = [];
  let batches = 0;
  const feed = new ChangeFeed({
    source,
    store: source.boardStore.feed,
    leadership: new Leadership(null, { timers }),
    timers,
    consumers: [{
      take: (batch) => {
        batches++;
        taken.push(...batch.events);
      },
    }],
  });
  const add = (jobId: string) =>
    client.xAdd("taskora:{email}:events", "*", { event: "active", jobId });
  /** Waits for `arrived`, the board's clock moving a gathering pause a look: an entry written
   * after a batch is read once the pause after it ended. */
  const gathered = (arrived: () => boolean, what: string) =>
    waitFor(async () => (await timers.tick(GATHER_MS), arrived()), { what });
  /** A browser's subscription (the event hub's), and what it got. */
  const browser = () => {
    const got: TaskEvent[] = [];
    return { got, close: source.subscribe((event) => got.push(event)) };
  };
  try {
    // A browser opens: the hub subscribes, and its stream needs the feed.
    const first = browser();
    await waitFor(() => source.eventConnections === 1, {
      what: "the reader to follow the browser",
    });
    feed.need();
    /** The feed runs, its tail past its first read (an empty one, after a blocking read's end). */
    const tailing = async (what: string) => {
      const before = batches;
      await waitFor(() => feed.running && batches > before, { what });
    };
    await tailing("the feed to run");
    await add("a1");
    await waitFor(() => first.got.length === 1 && taken.length === 1, { what: "a1 to arrive" });

    // The last browser closes; the feed runs on until its need lapses, then stops.
    first.close();
    await add("a2");
    await gathered(() => taken.length === 2, "a2 to reach the feed");
    await waitFor(async () => (await timers.tick(5_000), !feed.running), {
      what: "the feed to stop once its need lapsed",
    });
    assert.equal(source.eventConnections, 0, "nobody reads the streams");
    await add("a3"); // while no feed and no reader runs

    // A browser opens again.
    const second = browser();
    await waitFor(() => source.eventConnections === 1, {
      what: "the reader to follow the browser",
    });
    feed.need();
    await waitFor(() => taken.length === 3, { what: "the feed to run again and read a3" });
    await add("a4");
    await gathered(() => taken.length === 4 && second.got.length >= 1, "a4 to arrive");

    // The feed's need lapses with the browser still subscribed: its reader takes over again.
    await waitFor(async () => (await timers.tick(5_000), !feed.running), {
      what: "the feed to stop again",
    });
    await add("a5");
    await gathered(() => second.got.length >= 2, "a5 to reach the browser");
    feed.need();
    await tailing("the feed to run a third time");
    await add("a6");
    await gathered(() => taken.length === 6 && second.got.length >= 3, "a6 to arrive");
    second.close();

    // A browser opens while the feed runs with nobody subscribed: it gets what comes after.
    const third = browser();
    await add("a7");
    await gathered(() => taken.length === 7 && third.got.length >= 1, "a7 to arrive");
    third.close();

    assert.deepEqual(
      jobIds(taken),
      ["a1", "a2", "a3", "a4", "a5", "a6", "a7"],
      "the feed's consumer",
    );
    assert.deepEqual(jobIds(first.got), ["a1"], "the first browser");
    assert.deepEqual(jobIds(second.got), ["a4", "a5", "a6"], "the second browser");
    assert.deepEqual(jobIds(third.got), ["a7"], "the third browser");
  } finally {
    await feed.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
});
