/**
 * A job event reaches an open browser within 1 s, proven on the board's
 * clock rather than timed: a real taskora worker runs a job while the
 * board's fake clock stands still. Its first event reaches the board's
 * event hub all the same (the reader, blocked in XREAD, hands it over as
 * Redis answers: no pass, poll or pause of the board's is on the way); the
 * events written after it, while the reader gathers, come in its next read,
 * one gathering pause (`GATHER_MS`, 250 ms) of the board's clock later; the
 * hub then writes them to the browser within one flush spacing
 * (`maxBatchMs`, 250 ms): 500 ms at most.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { GATHER_MS } from "../../src/source/redis/event_reader.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { TaskEvent } from "../../src/source/types.ts";
import type { TimerId } from "../../src/timers.ts";
import { isEvent, openStream } from "../events/sse_client.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { finished } from "../helpers/taskora_jobs.ts";
import { taskOf, withApp } from "./harness.ts";

/** The hub's longest flush spacing (its default `maxBatchMs`). */
const MAX_BATCH_MS = 250;

/**
 * Fake timers that know whether the event reader waits in its gathering
 * pause: a timeout of `GATHER_MS` pending (nothing else in this board sets
 * one: the hub's flush spacing for one browser is about 0).
 */
class GatherTimers extends FakeTimers {
  readonly #gathers = new Set<number>();

  get gathering(): boolean {
    return this.#gathers.size > 0;
  }

  override setTimeout(callback: () => void, ms: number): number {
    if (ms !== GATHER_MS) return super.setTimeout(callback, ms);
    const id = super.setTimeout(() => {
      this.#gathers.delete(id);
      callback();
    }, ms);
    this.#gathers.add(id);
    return id;
  }

  override clearTimeout(id: TimerId): void {
    this.#gathers.delete(id as number);
    super.clearTimeout(id);
  }
}

/**
 * Runs a job while the board's clock stands still, with a browser open on a
 * board that leads (`leads`: its feed's tail reads for the hub) or follows
 * another (its hub's own reader); returns once the browser got the job's
 * `completed` after a gathering pause and the hub's flush spacing.
 */
async function eventReachesBrowser(leads: boolean): Promise<void> {
  await withApp(
    "redis",
    (app) => app.task("double", { handler: (d: { n: number }) => d.n * 2 }),
    async (world) => {
      const double = taskOf(world.app, "double");
      // The task's keys exist before the board looks: its stream is read from the start.
      const client = await connectClient(world.url);
      await finished(client, "double", String(await double.dispatch({ n: 1 })));
      if (!leads) await client.set("taskora:board:lease:board", "the-leader", { PX: 3_600_000 });
      const timers = new GatherTimers();
      const source = new RedisTaskSource({ url: world.url, commandTimeoutMs: 30_000 }, timers);
      // What the hub is handed, as it is handed it.
      const handed: TaskEvent[] = [];
      const subscribe = source.subscribe.bind(source);
      source.subscribe = (listener) =>
        subscribe((event) => {
          handed.push(event);
          listener(event);
        });
      const board = createBoardOn(timers, source, { history: false });
      const stream = await openStream(board.fetch, "http://board.test/board/api/events");
      try {
        // On the leader the browser's need starts the feed: its first pass writes the live state.
        if (leads) {
          await waitFor(() => source.boardStore.feed.readLiveSummary(), {
            what: "the feed's pass",
          });
        }
        await waitFor(
          async () => String(await client.sendCommand(["CLIENT", "LIST"])).includes("cmd=xread"),
          { what: "the board's XREAD" },
        );
        const standing = timers.now();
        const id = String(await double.dispatch({ n: 2 }));
        await finished(client, "double", id);
        await waitFor(() => handed.some((event) => event.jobId === id), {
          what: "the job's first event at the hub",
        });
        assert.equal(timers.now(), standing, "handed over with the board's clock standing still");
        const completed = () =>
          handed.some((event) => event.jobId === id && event.event === "completed");
        if (!completed()) {
          // Written after the first, while the reader gathers: its next read, a pause later.
          await waitFor(() => timers.gathering, { what: "the reader's gathering pause" });
          await timers.tick(GATHER_MS);
          await waitFor(completed, { what: "the job's completed at the hub" });
        }
        assert.ok(timers.now() - standing <= GATHER_MS, `${timers.now() - standing} ms`);
        await timers.tick(MAX_BATCH_MS);
        const frame = await stream.waitFor(isEvent("job:completed", (data) => data.id === id));
        assert.equal(JSON.parse(frame.data!).task, "double");
      } finally {
        await stream.close();
        await board.close();
        await source.close();
        await client.close();
      }
    },
  );
}

Deno.test("a job event reaches a browser on the leader within a gathering pause and a flush spacing of the board's clock: the feed's tail hands it over", async () => {
  await eventReachesBrowser(true);
});

Deno.test("a job event reaches a browser on a follower within a gathering pause and a flush spacing of the board's clock: its hub's reader hands it over", async () => {
  await eventReachesBrowser(false);
});
