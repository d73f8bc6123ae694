/**
 * What the Redis source costs at scale, on a real redis-server, counted in
 * Redis commands (`INFO commandstats` deltas, which count the commands
 * scripts run too): the overview's are O(tasks) and do not grow with the
 * delayed sets, an empty queue's head is not read, an idle source makes none, and the retrying split kept off
 * the request path stays right.
 */

import assert from "node:assert/strict";
import { createBoard } from "../../mod.ts";
import { createRedisSource, RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { TaskEvent } from "../../src/source/types.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import {
  commandsOf,
  commandsRun,
  SNAPSHOT_INNER_COMMANDS,
  totalCalls as total,
} from "../helpers/command_stats.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const TASKS = ["alpha", "beta", "gamma"];

/** Writes `delayed` delayed and as many retrying jobs into each task. */
async function fill(client: Client, delayed: number): Promise<void> {
  const now = Date.now();
  const writes: Promise<string>[] = [];
  for (const task of TASKS) {
    for (let i = 0; i < delayed; i++) {
      writes.push(writeJob(client, { task, state: "delayed", delay: 60_000 + i }));
      writes.push(writeJob(client, { task, state: "retrying", runAt: now + 60_000 + i }));
    }
    writes.push(writeJob(client, { task, state: "active" }));
  }
  await Promise.all(writes);
}

async function withRedis(fn: (client: Client, url: string) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    await fn(client, redis.url);
  } finally {
    await client.close();
    await redis.stop();
  }
}

/** The commands one `GET /api/overview` makes, once the split is counted. */
async function overviewCommands(client: Client, url: string): Promise<Map<string, number>> {
  const source = createRedisSource({ url, tasks: TASKS, reconcileCommandsPerSecond: 1_000_000 });
  // The direct read: no history, whose feed would serve the overview from the live state, and
  // another board leads, keeping none.
  const board = createBoard(source, { history: false });
  try {
    await client.set("taskora:board:lease:board", "the-leader", { PX: 3_600_000 });
    await source.reconcileRetrying();
    const get = async () => {
      const response = await board.fetch(new Request("http://x/board/api/overview"));
      assert.equal(response.status, 200);
      return await response.json();
    };
    await get();
    return await commandsOf(client, get);
  } finally {
    await board.close();
    await source.close();
  }
}

Deno.test("the overview's Redis commands are O(tasks): the same for 10 and 5,000 delayed jobs a task", async () => {
  let small = new Map<string, number>();
  let big = new Map<string, number>();
  await withRedis(async (client, url) => {
    await fill(client, 5);
    small = await overviewCommands(client, url);
  });
  await withRedis(async (client, url) => {
    await fill(client, 2500);
    big = await overviewCommands(client, url);
  });
  assert.deepEqual(big, small, "no command count grows with the delayed sets");
  // Per task: the snapshot script (inside: 8 LLEN/ZCARD; the ends of the wait list and the
  // prioritized set, their hashes, the active list's first 100 and their locks, the delayed set's
  // first) and the minutes' script (MGET, ZCOUNT of the failed set); and 2 INFO.
  assert.ok(
    total(big) <= TASKS.length * 18 + 2,
    `${total(big)} commands for ${TASKS.length} tasks`,
  );
  assert.equal(
    big.get("evalsha") ?? 0,
    TASKS.length * 2,
    "two bounded scripts per task: its counts and queue heads, its minutes' counters",
  );
  const inside = total(big, SNAPSHOT_INNER_COMMANDS);
  assert.ok(
    total(big) - inside <= TASKS.length * 3 + 2,
    `${total(big) - inside} commands on the wire for ${TASKS.length} tasks`,
  );
});

Deno.test("a task's empty queues cost the snapshot only their counts: no head is read", async () => {
  await withRedis(async (client, url) => {
    // alpha: a finished job only; beta: one job waiting, nothing else queued.
    await writeJob(client, { task: "alpha", state: "completed" });
    const waiting = await writeJob(client, { task: "beta", state: "waiting" });
    const source = createRedisSource({ url, tasks: ["alpha", "beta"] });
    try {
      const read = (task: string) => commandsOf(client, () => source.getQueueSnapshots([task]));
      await source.getQueueSnapshots(["alpha"]); // the first read also checks the wire version
      const idle = await read("alpha");
      assert.equal(total(idle, ["llen", "zcard"]), 8, "the eight counts");
      assert.equal(
        total(idle, ["lindex", "zrange", "hget", "hmget"]),
        0,
        "no head of an empty queue",
      );

      const busy = await read("beta");
      assert.deepEqual(
        [busy.get("lrange"), busy.get("hmget"), busy.get("zrange"), busy.get("hget")],
        [1, 1, undefined, undefined],
        "the wait list's ends (the whole of a short list) and its hash only",
      );
      const { heads } = (await source.getQueueSnapshots(["beta"])).get("beta")!;
      assert.equal(heads.oldestWaiting?.id, waiting);
      assert.equal(heads.oldestActive, null);
      assert.equal(heads.nextDue, null);
    } finally {
      await source.close();
    }
  });
});

Deno.test("an idle Redis source (no subscriber, no request for idleAfterMs) makes no command at all", async () => {
  await withRedis(async (client, url) => {
    await fill(client, 5);
    await client.hSet("taskora:wf:{w1}", { graph: "{}", state: "running", createdAt: "1" });
    const timers = new FakeTimers();
    const source = new RedisTaskSource({ url, discoveryIntervalMs: 100, idleAfterMs: 50 }, timers);
    try {
      await source.listTasks();
      await source.listWorkflows(0, 10);
      assert.ok(timers.pending > 0, "the next passes are planned");
      // Watched until idleAfterMs has passed since the last request; then nothing may run.
      await timers.tick(200);
      assert.equal(timers.pending, 0, "no pass is scheduled once idle");
      const idle = await commandsOf(client, () => timers.tick(3_600_000));
      assert.deepEqual(idle, new Map(), "no SCAN, no reconcile while nobody watches");
      // The first request after idle answers from the cache, and wakes discovery.
      const scans = async () => (await commandsRun(client)).get("scan") ?? 0;
      const scansBefore = await scans();
      assert.deepEqual(await source.listTasks(), TASKS);
      await timers.tick(0);
      await waitFor(async () => await scans() > scansBefore, { what: "a pass after the wake" });
    } finally {
      await source.close();
    }
  });
});

Deno.test("the retrying split follows retrying and active events, exact as of now while followed", async () => {
  await withRedis(async (client, url) => {
    await fill(client, 3);
    const source: RedisTaskSource = createRedisSource({ url, tasks: TASKS });
    const events: TaskEvent[] = [];
    const off = source.subscribe((event) => events.push(event));
    try {
      // The reader starts at Redis TIME: wait until it reads (progress says nothing of the split).
      await waitFor(async () => {
        await client.xAdd("taskora:{alpha}:events", "*", { event: "progress", jobId: "probe" });
        return events.some((e) => e.jobId === "probe");
      }, { what: "the reader to read" });
      await source.reconcileRetrying();
      const counted = (await source.getStats(["alpha"])).get("alpha")!;
      assert.deepEqual([counted.retrying, counted.delayed], [3, 3]);
      const id = await writeJob(client, {
        task: "alpha",
        state: "retrying",
        runAt: Date.now() + 1,
      });
      await waitFor(() => events.some((e) => e.jobId === id && e.event === "retrying"), {
        what: "the job's retrying event",
      });
      const after = (await source.getStats(["alpha"])).get("alpha")!;
      assert.deepEqual([after.retrying, after.delayed], [4, 3], "no reconcile needed");
      const asked = Date.now();
      const asOf = source.retryingAsOf(["alpha"]).get("alpha")!;
      assert.ok(asOf >= asked, "followed since the reconcile: exact as of the question");
      // A worker takes it: the delayed set shrinks, the split follows the active event.
      await client.zRem("taskora:{alpha}:delayed", id);
      // After those read so far: the job's first run wrote an active event before its retrying.
      const read = events.length;
      await client.xAdd("taskora:{alpha}:events", "*", { event: "active", jobId: id });
      await waitFor(() => events.slice(read).some((e) => e.jobId === id && e.event === "active"), {
        what: "the job's active event",
      });
      const taken = (await source.getStats(["alpha"])).get("alpha")!;
      assert.deepEqual([taken.retrying, taken.delayed], [3, 3]);
    } finally {
      off();
      await source.close();
    }
  });
});

Deno.test("without events followed, the split is as of its last reconcile, and says so", async () => {
  await withRedis(async (client, url) => {
    await fill(client, 2);
    const source = createRedisSource({ url, tasks: TASKS });
    try {
      assert.equal(source.retryingAsOf(["beta"]).get("beta"), null);
      const before = Date.now();
      await source.reconcileRetrying();
      const asOf = source.retryingAsOf(["beta"]).get("beta")!;
      assert.ok(asOf >= before && asOf <= Date.now());
      await writeJob(client, { task: "beta", state: "retrying", runAt: Date.now() + 1 });
      const stats = (await source.getStats(["beta"])).get("beta")!;
      // Not followed: the new job counts as delayed until the next reconcile; the totals are right.
      assert.deepEqual([stats.retrying, stats.delayed], [2, 3]);
      assert.equal(source.retryingAsOf(["beta"]).get("beta"), asOf);
    } finally {
      await source.close();
    }
  });
});

Deno.test("a page of the retrying tab reads the jobs it lists, not the whole delayed set", async () => {
  await withRedis(async (client, url) => {
    await fill(client, 2500);
    const source = createRedisSource({ url, tasks: TASKS, reconcileCommandsPerSecond: 1_000_000 });
    try {
      await source.reconcileRetrying();
      let page = { total: 0, jobs: [] as unknown[] };
      const calls = await commandsOf(client, async () => {
        page = await source.listJobs("alpha", "retrying", 0, 10);
      });
      assert.equal(page.jobs.length, 10);
      assert.equal(page.total, 2500, "the total is the kept split's");
      // The set holds 5,000 members: the page looks at the first few dozen of them.
      assert.ok((calls.get("hget") ?? 0) < 100, `${calls.get("hget")} HGETs`);
    } finally {
      await source.close();
    }
  });
});

Deno.test("a budget that is not a positive number is refused before any connection opens", () => {
  for (const bad of [0, -5, Number.NaN, Infinity]) {
    assert.throws(
      () => createRedisSource({ url: "redis://127.0.0.1:1", reconcileCommandsPerSecond: bad }),
      /reconcileCommandsPerSecond must be a positive number/,
    );
    assert.throws(
      () => createRedisSource({ url: "redis://127.0.0.1:1", scansPerSecond: bad }),
      /scansPerSecond must be a positive number/,
    );
  }
});
