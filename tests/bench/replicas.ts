/**
 * The replicas benchmark (issue 23): what 1 and 5 watched boards on one Redis
 * cost it, in commands per second (`INFO commandstats` deltas, the commands
 * scripts run included), at 1,000,000 jobs over 20 tasks (one in eight
 * delayed, one in eight retrying). Each board has its own Redis source (its
 * own connections, as a process of its own would) and 20 SSE clients, so
 * that someone watches it. Prints, per run of `WINDOW_MS`, commands/s by kind
 * of work, then the median over the runs and the ratio of 5 boards to 1.
 *
 * `deno run --allow-all tests/bench/replicas.ts [jobs]` (default 1000000).
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { fillRedis } from "../helpers/wire_writer.ts";
import { openSseClients } from "./sse_clients.ts";

const TASKS = 20;
const WINDOW_MS = 30_000;
const RUNS = 3;
const SSE_CLIENTS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Starts `count` boards, each with its SSE clients; returns how to stop them. */
async function watchedBoards(url: string, count: number) {
  const boards = Array.from({ length: count }, () => {
    const source = createRedisSource({ url });
    return { source, board: createBoard(source) };
  });
  const closers = await Promise.all(boards.map(({ board }) => openSseClients(board, SSE_CLIENTS)));
  return async () => {
    await Promise.all(closers.map((close) => close()));
    for (const { board, source } of boards) {
      await board.close();
      await source.close();
    }
  };
}

const jobs = Number(Deno.args[0] ?? 1_000_000);
const redis = await startRedis();
const client = await connectClient(redis.url);
await fillRedis(client as never, { jobs, tasks: TASKS });
console.log(
  `## ${jobs.toLocaleString("en")} jobs over ${TASKS} tasks, ${
    (await client.dbSize()).toLocaleString("en")
  } keys; ${SSE_CLIENTS} SSE clients per board, ${RUNS} runs of ${WINDOW_MS / 1000} s each`,
);

const perSecond = (n: number) => n / (WINDOW_MS / 1000);
const medians = new Map<number, number>();
for (const count of [1, 5]) {
  // A fresh start each time: what the boards shared before is gone, as for a new replica set.
  const shared = await client.sendCommand(["KEYS", "taskora:board:*"]) as string[];
  if (shared.length > 0) await client.sendCommand(["DEL", ...shared]);
  const stop = await watchedBoards(redis.url, count);
  await sleep(3000);
  const rates: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const calls = await commandsOf(client, () => sleep(WINDOW_MS));
    const total = perSecond(totalCalls(calls));
    rates.push(total);
    console.log(
      `${count} board(s), run ${run + 1}: ${total.toFixed(1)} commands/s: reconcile ${
        perSecond(totalCalls(calls, ["zscan", "hget"])).toFixed(1)
      }/s, discovery ${perSecond(calls.get("scan") ?? 0).toFixed(1)} SCAN/s, stats frames ${
        perSecond(totalCalls(calls, ["evalsha", "llen", "zcard"])).toFixed(1)
      }/s, event reader ${perSecond(calls.get("xread") ?? 0).toFixed(1)}/s, leases and ` +
        `shared results ${
          perSecond(totalCalls(calls, ["set", "get", "pexpire", "eval", "del"])).toFixed(1)
        }/s`,
    );
  }
  await stop();
  medians.set(count, median(rates));
}
const one = medians.get(1)!;
const five = medians.get(5)!;
console.log(
  `median: 1 board ${one.toFixed(1)} commands/s, 5 boards ${five.toFixed(1)} commands/s: ` +
    `ratio ${(five / one).toFixed(2)} (target ≤ 1.3; ≤ 100 commands/s for the whole set)`,
);
await client.close();
await redis.stop();
