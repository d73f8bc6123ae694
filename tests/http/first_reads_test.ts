/**
 * A just-started board reads every task once, in its change feed's first
 * pass, not again on the request path: its first `/metrics` scrape is
 * answered from that pass, and so are the ones after it. Counted by Redis
 * (`INFO commandstats`) at 200 tasks, 8 jobs each: every read of a task's
 * counts runs 6 ZCARDs (the overview's snapshot script; the live state's
 * pass reads the same), and a scrape's scaling series one more for each of
 * its 20 busiest tasks.
 *
 * The board runs on fake timers, so no pass but the first lands inside a
 * count; Redis answers in its own time. A first pass slower than the stats
 * interval is made by moving the clock inside its read: the page that
 * waited for it takes its state, however old, rather than reading again.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { FIRST_PASS_WAIT_MS } from "../../src/feed/live_read.ts";
import type { OverviewResponse } from "../../src/contract/overview.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { renewalsInFlight } from "../helpers/lease_renewals.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const TASKS = 200;
/** ZCARDs of one read of a task's counts. */
const ZCARDS_A_READ = 6;
/** Tasks a scrape reads the scaling series of (one ZCARD each). */
const SCALING_TASKS = 20;

/** A just-started board over a Redis of {@link TASKS} tasks, and how often it read every task. */
async function withBoard(
  fn: (ctx: {
    client: Client;
    source: RedisTaskSource;
    timers: FakeTimers;
    get: (path: string) => Promise<string>;
    fetch: (path: string) => Promise<Response>;
    everyTaskReads: () => number;
  }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const names = Array.from({ length: TASKS }, (_, i) => `task-${i}`).sort();
  // The tasks are known: no discovery SCAN.
  const source = new RedisTaskSource(
    { url: redis.url, tasks: names, commandTimeoutMs: 30_000 },
    timers,
  );
  let everyTask = 0;
  const read = source.getQueueSnapshots.bind(source);
  source.getQueueSnapshots = (tasks) => {
    if (tasks.length === TASKS) everyTask++;
    return read(tasks);
  };
  // No history: its recorder would start the feed before the first request.
  const board = createBoardOn(timers, source, { history: false });
  try {
    await fillRedis(client as never, { jobs: TASKS * 8, tasks: TASKS });
    const fetch = async (path: string) =>
      await board.fetch(new Request(`http://board.test/board${path}`));
    const get = async (path: string) => {
      const response = await fetch(path);
      assert.equal(response.status, 200, path);
      return await response.text();
    };
    await fn({ client, source, timers, get, fetch, everyTaskReads: () => everyTask });
  } finally {
    await board.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

/** The value of the sample named `name` in the exposition `text`. */
function sampleOf(text: string, name: string): number | undefined {
  const line = text.split("\n").find((line) => line.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

Deno.test("a just-started board's first scrapes read every task once, in the feed's first pass", async () => {
  await withBoard(async ({ client, source, get, everyTaskReads }) => {
    let first = "";
    const calls = await commandsOf(client, async () => {
      first = await get("/metrics");
      await get("/metrics");
    });
    const zcards = calls.get("zcard") ?? 0;
    console.log(`two scrapes at ${TASKS} tasks: ${zcards} ZCARD`, Object.fromEntries(calls));
    assert.equal(everyTaskReads(), 1, "every task read once");
    assert.equal(zcards, ZCARDS_A_READ * TASKS + 2 * SCALING_TASKS);
    const summary = await source.boardStore.feed.readLiveSummary();
    assert.equal(
      sampleOf(first, "queue_board_task_figures_timestamp_seconds"),
      summary!.asOf / 1000,
      "the first scrape is the first pass's",
    );
  });
});

Deno.test("on a follower whose leader keeps no live state yet, a scrape reads every task once, nothing beside", async () => {
  await withBoard(async ({ client, get, everyTaskReads }) => {
    await client.set("taskora:board:lease:board", "the-leader", { PX: 3_600_000 });
    const calls = await commandsOf(client, async () => {
      await get("/metrics");
      await get("/metrics");
    });
    assert.equal(everyTaskReads(), 2, "each scrape read every task itself");
    assert.equal(calls.get("zcard"), 2 * (ZCARDS_A_READ * TASKS + SCALING_TASKS));
    // Beside the direct read, the live state's summary (one HMGET a scrape) and the need noted
    // for the leader: no feed and no pass here.
    assert.deepEqual([calls.get("xread"), calls.get("hset")], [undefined, undefined]);
  });
});

Deno.test("a just-started board's first overview pages read every task once, in the feed's first pass", async () => {
  await withBoard(async ({ client, source, get, everyTaskReads }) => {
    const pages: OverviewResponse[] = [];
    const calls = await commandsOf(client, async () => {
      for (let i = 0; i < 2; i++) {
        pages.push(JSON.parse(await get("/api/overview?limit=50&sort=health")));
      }
    });
    assert.equal(everyTaskReads(), 1, "every task read once");
    assert.equal(calls.get("zcard"), ZCARDS_A_READ * TASKS);
    const summary = await source.boardStore.feed!.readLiveSummary();
    assert.deepEqual(pages.map((page) => page.asOf), [summary!.asOf, summary!.asOf]);
    assert.deepEqual(pages.map((page) => [page.tasks.length, page.matched]), [[50, TASKS], [
      50,
      TASKS,
    ]]);
  });
});

Deno.test("a first pass that outlasts the stats interval still answers the first page: every task read once", async () => {
  await withBoard(async ({ source, get, everyTaskReads, timers }) => {
    // The pass's reads take 5 s of the board's clock (a loaded machine at 1,000 tasks took more),
    // more than the stats interval (3 s): its state is older than that when it is written.
    const read = source.getQueueSnapshots.bind(source);
    source.getQueueSnapshots = async (tasks) => {
      const snapshots = await read(tasks);
      await timers.tick(5_000);
      return snapshots;
    };
    const page: OverviewResponse = JSON.parse(await get("/api/overview?limit=50&sort=health"));
    assert.equal(everyTaskReads(), 1, "every task read once, in the pass the page waited for");
    const summary = await source.boardStore.feed!.readLiveSummary();
    assert.equal(page.asOf, summary!.asOf, "the page is the first pass's");
    assert.deepEqual([page.tasks.length, page.matched], [50, TASKS]);
  });
});

Deno.test("a first pass that outlasts the wait answers 503 COUNTING, not a read of every task beside it; the next page is the pass's", async () => {
  await withBoard(async ({ client, source, get, fetch, everyTaskReads, timers }) => {
    // The pass's read of every task holds until the test lets it end: longer than a page waits
    // for it (a loaded machine at 1,000 tasks). Before, the page then read every task itself.
    const read = source.getQueueSnapshots.bind(source);
    const reading = Promise.withResolvers<void>();
    const passMayEnd = Promise.withResolvers<void>();
    let held = false;
    source.getQueueSnapshots = async (tasks) => {
      const snapshots = await read(tasks);
      if (!held) {
        held = true;
        reading.resolve();
        await passMayEnd.promise;
      }
      return snapshots;
    };
    // The lease renewals answer while the clock moves, as Redis does within a second.
    const renewing = renewalsInFlight(source.boardStore);
    let page!: OverviewResponse;
    const calls = await commandsOf(client, async () => {
      const asked = fetch("/api/overview?limit=50&sort=health");
      await reading.promise;
      for (let ms = 0; ms <= FIRST_PASS_WAIT_MS; ms += 1_000) {
        await timers.tick(1_000);
        await waitFor(() => renewing() === 0, { what: "the lease renewal" });
      }
      passMayEnd.resolve();
      const counting = await asked;
      assert.equal(counting.status, 503);
      assert.equal((await counting.json()).code, "COUNTING");
      assert.ok(Number(counting.headers.get("retry-after")) > 0, "says when to ask again");
      page = JSON.parse(await get("/api/overview?limit=50&sort=health"));
    });
    assert.equal(everyTaskReads(), 1, "every task read once, by the pass");
    assert.equal(calls.get("zcard"), ZCARDS_A_READ * TASKS);
    const summary = await source.boardStore.feed!.readLiveSummary();
    assert.equal(page.asOf, summary!.asOf, "the next page is the first pass's");
    assert.deepEqual([page.tasks.length, page.matched], [50, TASKS]);
  });
});

Deno.test("a page from the live state waits on Redis twice: the index with the server's INFO, then its rows", async () => {
  await withBoard(async ({ source, get }) => {
    await get("/api/overview?limit=50&sort=health");
    // A round trip that starts while none is in flight is one more wait; one that starts beside
    // another shares its wait.
    let inFlight = 0;
    let waits = 0;
    // Every round trip, one command or many, goes through pipelineSettled.
    const pipeline = source.connection.pipelineSettled.bind(source.connection);
    source.connection.pipelineSettled = async (commands) => {
      if (inFlight++ === 0) waits++;
      try {
        return await pipeline(commands);
      } finally {
        inFlight--;
      }
    };
    const page: OverviewResponse = JSON.parse(await get("/api/overview?limit=50&sort=health"));
    assert.equal(page.tasks.length, 50);
    assert.ok(page.redis.version !== "unknown", "the server's INFO was read");
    // Before, the INFO was read after the rows: three waits.
    assert.equal(waits, 2);
  });
});
