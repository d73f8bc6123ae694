/**
 * What `GET /api/schedules` costs: Redis commands per request (counted by
 * Redis, `INFO commandstats`) and the median time over many calls, for
 * this checkout and other checkouts of the project (a `git worktree` of an
 * earlier head) on the same Redis and keyspace, beside a stand-in for the
 * upstream board's route (Hono answering `HGETALL` of the schedules and
 * `ZRANGE` of their next runs, each config parsed, as taskora's
 * `app.schedules.list()` does; `tests/bench/` may hold the upstream board
 * itself). The keyspace: `SCHEDULES` schedules (half cron in a time zone,
 * half intervals), each with its last job and three runs the board
 * dispatched, all finished (a board's steady state). Each board and its
 * source run on fake timers, so no background pass lands inside a count
 * or a timing.
 *
 * `deno run -A tests/bench/schedules.ts [calls] [../earlier-head ...]`
 * prints, per head, `commands/request · median ms · ratio to the stand-in`;
 * `BENCH_URL` times another route of the board instead (its fixed cost).
 */

import { Hono } from "hono";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { globalKeys } from "../../src/source/wire/keys.ts";

const SCHEDULES = 20;
const [callsArg = "500", ...others] = Deno.args;
const calls = Number(callsArg);
const heads = [
  new URL("../../", import.meta.url).pathname,
  ...others.map((p) => Deno.realPathSync(p)),
];

interface Fetcher {
  fetch(request: Request): Response | Promise<Response>;
}

/** The median of `calls` GETs of `url` (ms), after a warm-up. */
async function medianMs(app: Fetcher, url: string): Promise<number> {
  const get = async () => {
    const response = await app.fetch(new Request(url));
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    await response.arrayBuffer();
  };
  for (let i = 0; i < 50; i++) await get();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await get();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1];
}

const redis = await startRedis();
const client = await connectClient(redis.url);
try {
  const keys = globalKeys();
  const now = Date.now();
  for (let i = 0; i < SCHEDULES; i++) {
    const task = `task-${i % 5}`;
    const lastJobId = await writeJob(client as never, {
      task,
      state: "completed",
      finishedOn: now - 1000,
    });
    const timing = i % 2 === 0
      ? { cron: `${i} 4 * * *`, timezone: "Europe/Berlin" }
      : { every: 60_000 * (i + 1) };
    await client.sendCommand([
      "HSET",
      keys.schedules,
      `schedule-${i}`,
      JSON.stringify({ task, ...timing, lastRun: now - 1000, lastJobId }),
    ]);
    await client.sendCommand(["ZADD", keys.schedulesNext, String(now + 60_000), `schedule-${i}`]);
  }

  const upstream = new Hono().get("/api/schedules", async (c) => {
    const [all, scores] = await Promise.all([
      client.sendCommand(["HGETALL", keys.schedules]) as Promise<string[]>,
      client.sendCommand(["ZRANGE", keys.schedulesNext, "0", "-1", "WITHSCORES"]) as Promise<
        string[]
      >,
    ]);
    const next = new Map<string, number>();
    for (let i = 0; i < scores.length; i += 2) next.set(scores[i], Number(scores[i + 1]));
    const list = [];
    for (let i = 0; i < all.length; i += 2) {
      const stored = JSON.parse(all[i + 1]);
      list.push({
        name: all[i],
        config: JSON.parse(all[i + 1]),
        nextRun: next.get(all[i]) ?? null,
        lastRun: stored.lastRun ?? null,
        lastJobId: stored.lastJobId ?? null,
        paused: !next.has(all[i]),
      });
    }
    return c.json(list);
  });
  const baseline = await medianMs(upstream, "http://127.0.0.1/api/schedules");
  console.log(`${SCHEDULES} schedules, ${calls} calls each`);
  console.log(`  upstream stand-in: 2 commands · ${baseline.toFixed(3)} ms`);

  for (const [h, head] of heads.entries()) {
    const { createBoardOn } = await import(`file://${head}/src/board.ts`);
    const { RedisTaskSource } = await import(`file://${head}/src/source/redis/mod.ts`);
    const timers = new FakeTimers();
    const source = new RedisTaskSource({ url: redis.url }, timers);
    const board = createBoardOn(timers, source);
    try {
      if (h === 0) {
        // Three runs "Run now" dispatched per schedule, written once through this head.
        for (let i = 0; i < SCHEDULES; i++) {
          for (let run = 0; run < 3; run++) {
            const jobId = await writeJob(client as never, {
              task: `task-${i % 5}`,
              state: "completed",
              finishedOn: now - run * 1000,
            });
            await source.boardStore.recordBoardRun(
              `schedule-${i}`,
              { jobId, at: now - run * 1000 },
              10,
            );
          }
        }
      }
      const url = Deno.env.get("BENCH_URL") ?? "http://127.0.0.1/board/api/schedules";
      const ms = await medianMs(board, url);
      const commands = totalCalls(
        await commandsOf(
          client,
          async () => await (await board.fetch(new Request(url))).arrayBuffer(),
        ),
      );
      console.log(
        `  ${head}: ${commands} commands · ${ms.toFixed(3)} ms · ${(ms / baseline).toFixed(2)} ×`,
      );
    } finally {
      await board.close();
      await source.close();
    }
  }
} finally {
  await client.close();
  await redis.stop();
}
