/**
 * What the 24 h throughput costs at many tasks: `GET /api/throughput` read
 * from the counters (a board whose kept day is missing) and from the day
 * the leader keeps, and the leader's passes that keep it (the first reads
 * the whole day, the next only the minutes since): Redis commands (counted
 * by Redis, `INFO commandstats`) and time. Each task has counters in three
 * minutes of the day; the board and its source run on fake timers, and a
 * pass is run by calling it.
 *
 * `deno run -A tests/bench/throughput.ts [tasks]` (default 1,000)
 */

import { keepThroughput } from "../../src/samplers/throughput.ts";
import { createBoardOn } from "../../src/board.ts";
import { Leadership } from "../../src/leadership.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const MINUTE = 60_000;
const tasks = Number(Deno.args[0] ?? 1000);

const redis = await startRedis();
const client = await connectClient(redis.url);
const timers = new FakeTimers();
const source = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 60_000 }, timers);
const board = createBoardOn(timers, source);
try {
  const minute = Date.now() - (Date.now() % MINUTE);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < tasks; i++) {
    for (const ago of [5, 90, 1000]) {
      writes.push(client.set(metricKey(`task-${i}`, "completed", minute - ago * MINUTE), "3"));
    }
    writes.push(client.xAdd(`taskora:{task-${i}}:events`, "*", { event: "waiting", jobId: "x" }));
  }
  await Promise.all(writes);
  await source.listTasks({ fresh: true });

  const get = async () => {
    const response = await board.fetch(new Request("http://127.0.0.1/board/api/throughput"));
    await response.arrayBuffer();
  };
  /** Commands and ms of one `work`. */
  const measure = async (work: () => Promise<unknown>) => {
    const start = performance.now();
    const calls = await commandsOf(client, work);
    return `${totalCalls(calls)} commands, ${(performance.now() - start).toFixed(0)} ms`;
  };
  console.log(`${tasks} tasks`);
  console.log(`  GET /api/throughput, direct:   ${await measure(get)}`);
  // The board's own keeper runs on its lease; this one leads alone, for a pass run by hand.
  const keeper = keepThroughput({
    source,
    store: source.boardStore.keptThroughput,
    leadership: new Leadership(null),
    timers,
    clock: Date.now,
  });
  console.log(`  the leader's first pass:       ${await measure(keeper.pass)}`);
  console.log(`  a pass after it:               ${await measure(keeper.pass)}`);
  console.log(`  GET /api/throughput, kept:     ${await measure(get)}`);
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const start = performance.now();
    await get();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  console.log(`  kept, median of 200:           ${times[100].toFixed(2)} ms`);
  keeper.close();
} finally {
  await board.close();
  await source.close();
  await client.close();
  await redis.stop();
}
