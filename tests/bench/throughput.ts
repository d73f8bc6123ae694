/**
 * What the 24 h throughput costs at many tasks: a just-started board's
 * first `GET /api/throughput` (the leader's first pass, which reads every
 * task's whole day of counters), the day the leader keeps, and its passes
 * after (only the minutes since): Redis commands (counted by Redis, `INFO
 * commandstats`), the bytes sent to Redis (`INFO stats`), the CPU of Redis
 * and of this process (`process_cpu.ts`), and time. Each task has counters
 * in three minutes of the day; the board and its source run on fake timers,
 * and a pass is run by calling it.
 *
 * `deno run -A tests/bench/throughput.ts [tasks]` (default 1,000)
 */

import { keepThroughput } from "../../src/samplers/throughput.ts";
import { createBoardOn } from "../../src/board.ts";
import { Leadership } from "../../src/leadership.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { metricKey } from "../../src/source/wire/keys.ts";
import { bytesReceived, commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { cpuMsOf, redisCpuMs } from "./process_cpu.ts";

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
  /** Commands, bytes sent, CPU and ms of one `work`. */
  const measure = async (work: () => Promise<unknown>) => {
    const [bytes, redisCpu, boardCpu] = [
      await bytesReceived(client),
      await redisCpuMs(client),
      await cpuMsOf(Deno.pid),
    ];
    const start = performance.now();
    const calls = await commandsOf(client, work);
    const ms = performance.now() - start;
    const kb = (await bytesReceived(client) - bytes) / 1000;
    return `${totalCalls(calls)} commands, ${kb.toFixed(0)} KB sent, CPU: Redis ` +
      `${(await redisCpuMs(client) - redisCpu).toFixed(0)} ms, board ` +
      `${(await cpuMsOf(Deno.pid) - boardCpu).toFixed(0)} ms; ${ms.toFixed(0)} ms`;
  };
  console.log(`${tasks} tasks`);
  console.log(`  first GET /api/throughput:     ${await measure(get)}`);
  // The board's own keeper runs on its lease; this one leads alone, for a pass run by hand.
  const keeper = keepThroughput({
    source,
    store: source.boardStore.keptThroughput,
    leadership: new Leadership(null),
    timers,
    clock: Date.now,
  });
  console.log(`  a new leader's first pass:     ${await measure(keeper.pass)}`);
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
