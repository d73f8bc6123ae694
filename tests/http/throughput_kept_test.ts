/**
 * `GET /throughput` from the day the leader keeps (`samplers/throughput.ts`),
 * on a real redis-server, counted by Redis (`INFO commandstats`): at 1,000
 * tasks the total and one task's cost a few commands, not a script per
 * task; the figures are the counters' own; a follower board answers from
 * the leader's day; a day left stale is read from the counters again.
 * Lease turns and passes run on fake timers.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { AS_OF_HEADER, type ThroughputBucket } from "../../src/contract/throughput.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { bytesReceived, commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

const MINUTE = 60_000;
const TASKS = 1000;
const KEPT = "taskora:board:throughput";

type Client = Awaited<ReturnType<typeof connectClient>>;
interface Board {
  fetch(request: Request): Response | Promise<Response>;
  close(): Promise<void>;
}

/** Counters of `tasks` tasks: task `i` completed `i % 7 + 1` and failed `i % 3` in each of 3 minutes. */
async function writeCounters(client: Client, tasks: number, now: number): Promise<void> {
  const minute = now - (now % MINUTE);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < tasks; i++) {
    for (const ago of [5, 90, 1000]) {
      const at = minute - ago * MINUTE;
      writes.push(client.set(metricKey(`task-${i}`, "completed", at), String(i % 7 + 1)));
      if (i % 3 > 0) writes.push(client.set(metricKey(`task-${i}`, "failed", at), String(i % 3)));
    }
    // The task's keys, so that discovery finds it.
    writes.push(client.xAdd(`taskora:{task-${i}}:events`, "*", { event: "waiting", jobId: "x" }));
  }
  await Promise.all(writes);
}

async function get(board: Board, path: string) {
  const response = await board.fetch(new Request(`http://board/board/api${path}`));
  assert.equal(response.status, 200, path);
  return {
    buckets: await response.json() as ThroughputBucket[],
    asOf: Number(response.headers.get(AS_OF_HEADER)),
  };
}

/** The jobs finished in `buckets`, completed or failed. */
function jobsIn(buckets: ThroughputBucket[]): number {
  return buckets.reduce((sum, { completed, failed }) => sum + completed + failed, 0);
}

/** The counts of each minute both answers have, and how many jobs they add up to. */
function sameMinutes(a: ThroughputBucket[], b: ThroughputBucket[]): number {
  const byTime = new Map(b.map((bucket) => [bucket.timestamp, bucket]));
  let jobs = 0;
  for (const bucket of a) {
    const other = byTime.get(bucket.timestamp);
    if (!other) continue;
    assert.deepEqual(bucket, other);
    jobs += bucket.completed + bucket.failed;
  }
  return jobs;
}

async function withBoards(
  boards: number,
  tasks: number,
  fn: (ctx: { boards: Board[]; client: Client; timers: FakeTimers }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const sources = Array.from(
    { length: boards },
    () => new RedisTaskSource({ url: redis.url, commandTimeoutMs: 30_000 }, timers),
  );
  const made = sources.map((source) => createBoardOn(timers, source));
  try {
    await writeCounters(client, tasks, Date.now());
    for (const source of sources) await source.listTasks({ fresh: true });
    await fn({ boards: made, client, timers });
  } finally {
    for (const board of made) await board.close();
    for (const source of sources) await source.close();
    await client.close();
    await redis.stop();
  }
}

/** Asks `board` (which notes the demand and competes), then lets the leader's first pass run. */
async function keptAfterAsking(board: Board, client: Client, timers: FakeTimers) {
  const direct = await get(board, "/throughput");
  await settle();
  for (let i = 0; i < 6 && !await client.hExists(KEPT, "@asOf"); i++) await timers.tick(10_000);
  await waitFor(() => client.hExists(KEPT, "@asOf"), { what: "the leader's first pass" });
  return direct;
}

Deno.test("at 1,000 tasks a just-started board's first GET /throughput is the leader's first pass, every task's counters read once; then the total or one task's reads the kept day: a few commands", async () => {
  // One board for both: the first pass reads every task's day (1,000 scripts of 2,880 keys each),
  // the most of this file's time; what follows reads the day it kept.
  await withBoards(1, TASKS, async ({ boards: [board], client }) => {
    // Before, the first ask read every task's counters on the request (3,000 commands) and the
    // leader's first pass, which the ask starts, read them all again.
    let first!: Awaited<ReturnType<typeof get>>;
    const bytesBefore = await bytesReceived(client);
    const firstCalls = await commandsOf(
      client,
      async () => first = await get(board, "/throughput"),
    );
    const bytesPerTask = (await bytesReceived(client) - bytesBefore) / TASKS;
    console.log(
      `a just-started board's first GET /throughput: ${totalCalls(firstCalls)} commands, ` +
        `${Math.round(bytesPerTask)} bytes sent to Redis per task`,
    );
    assert.equal(first.asOf, Number(await client.hGet(KEPT, "@asOf")), "the kept day's");
    // The script of each task's minutes (its MGET and ZCOUNT), once: in the pass.
    assert.deepEqual([firstCalls.get("mget"), firstCalls.get("zcount")], [TASKS, TASKS]);
    // A task's day is asked by its key and its minutes' range, the script naming the counters:
    // the 2,880 counters' names sent from the board were about 115 KB a task.
    assert.ok(bytesPerTask < 512, `${Math.round(bytesPerTask)} bytes a task`);

    let total!: Awaited<ReturnType<typeof get>>;
    const totalCalls_ = await commandsOf(
      client,
      async () => total = await get(board, "/throughput"),
    );
    let task!: Awaited<ReturnType<typeof get>>;
    const taskCalls = await commandsOf(
      client,
      async () => task = await get(board, "/throughput?task=task-8&count=60"),
    );
    console.log(
      `GET /throughput at ${TASKS} tasks: ${totalCalls(totalCalls_)} commands, ` +
        `?task=: ${totalCalls(taskCalls)}`,
    );
    assert.ok(totalCalls(totalCalls_) <= 100, `${totalCalls(totalCalls_)} commands`);
    assert.ok(totalCalls(taskCalls) <= 100, `${totalCalls(taskCalls)} commands`);
    assert.equal(total.buckets.length, 1440);

    // The counters' figures: each task i finished (i % 7 + 1) + (i % 3) jobs in each minute written.
    let perMinute = 0;
    for (let i = 0; i < TASKS; i++) perMinute += i % 7 + 1 + i % 3;
    assert.equal(jobsIn(first.buckets), 3 * perMinute, "5, 90 and 1,000 min ago");
    assert.equal(sameMinutes(total.buckets, first.buckets), 3 * perMinute, "the kept day again");
    // Task 8's hour holds one minute written, 5 min ago: 2 completed and 2 failed.
    assert.equal(task.buckets.length, 60);
    assert.equal(jobsIn(task.buckets), 2 + 2);
    assert.ok(Date.now() - total.asOf < 5 * MINUTE);
  });
});

Deno.test("a follower board answers from the leader's day; a day left stale is read from the counters", async () => {
  const tasks = 50;
  await withBoards(2, tasks, async ({ boards: [leader, follower], client, timers }) => {
    const direct = await keptAfterAsking(leader, client, timers);
    let followed = await get(follower, "/throughput");
    const calls = await commandsOf(
      client,
      async () => followed = await get(follower, "/throughput"),
    );
    // The request's own: the follower's lease take, started by its first ask, may land here.
    assert.equal(totalCalls(calls, ["hmget", "mget", "zcount"]), 1, "one HMGET");
    assert.ok(sameMinutes(followed.buckets, direct.buckets) > 0);
    assert.equal(followed.asOf, Number(await client.hGet(KEPT, "@asOf")));

    // The leader went away three minutes ago, and nobody kept the day since.
    await leader.close();
    await client.hSet(KEPT, "@asOf", String(followed.asOf - 3 * MINUTE));
    const stale = await commandsOf(
      client,
      async () => followed = await get(follower, "/throughput"),
    );
    assert.ok((stale.get("evalsha") ?? 0) >= tasks, "every task's counters read again");
    assert.ok(sameMinutes(followed.buckets, direct.buckets) > 0);
    assert.ok(followed.asOf > Number(await client.hGet(KEPT, "@asOf")), "the read's own time");
  });
});
