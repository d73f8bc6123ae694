/**
 * The replicas benchmark (issue 23): what 1 and 5 watched boards on one Redis
 * cost it, in commands per second (`INFO commandstats` deltas, the commands
 * scripts run included), at 1,000,000 jobs over 20 tasks (one in eight
 * delayed, one in eight retrying). Each board has its own Redis source (its
 * own connections, as a process of its own would) and 20 SSE clients, so
 * that someone watches it. Prints the start-up (the first `STARTUP_MS`,
 * while each board discovers and the leader is chosen), then `RUNS` runs of
 * `WINDOW_MS`, together one discovery cycle (a pass of 1,000 SCANs every
 * 100 s at 1M keys), by kind of work; then the median of the runs, the mean
 * over the cycle, and the ratio of 5 boards to 1.
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
const STARTUP_MS = 45_000;
const WINDOW_MS = 25_000;
const RUNS = 4;
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

const perSecond = (n: number, ms = WINDOW_MS) => n / (ms / 1000);

/** One line of what `calls` cost over `ms`, by kind of work. */
function line(label: string, calls: Map<string, number>, ms = WINDOW_MS): string {
  const rate = (names?: string[]) => perSecond(totalCalls(calls, names), ms).toFixed(1);
  return `${label}: ${rate()} commands/s: reconcile ${rate(["zscan", "hget"])}/s, discovery ${
    rate(["scan"])
  } SCAN/s, stats frames ${rate(["evalsha", "llen", "zcard"])}/s, event reader ${
    rate(["xread"])
  }/s, leases and shared results ${rate(["set", "get", "pexpire", "pttl", "del"])}/s`;
}

const steady = new Map<number, { median: number; mean: number }>();
for (const count of [1, 5]) {
  // A fresh start each time: what the boards shared before is gone, as for a new replica set.
  const shared = await client.sendCommand(["KEYS", "taskora:board:*"]) as string[];
  if (shared.length > 0) await client.sendCommand(["DEL", ...shared]);
  let stop = async () => {};
  const startup = await commandsOf(client, async () => {
    stop = await watchedBoards(redis.url, count);
    await sleep(STARTUP_MS);
  });
  console.log(line(`${count} board(s), start-up (${STARTUP_MS / 1000} s)`, startup, STARTUP_MS));
  const rates: number[] = [];
  let total = 0;
  for (let run = 0; run < RUNS; run++) {
    const calls = await commandsOf(client, () => sleep(WINDOW_MS));
    rates.push(perSecond(totalCalls(calls)));
    total += totalCalls(calls);
    console.log(line(`${count} board(s), run ${run + 1}`, calls));
  }
  await stop();
  steady.set(count, { median: median(rates), mean: perSecond(total, RUNS * WINDOW_MS) });
}
const one = steady.get(1)!;
const five = steady.get(5)!;
console.log(
  `median of the runs: 1 board ${one.median.toFixed(1)} commands/s, 5 boards ${
    five.median.toFixed(1)
  }: ratio ${(five.median / one.median).toFixed(2)}; mean over ${
    (RUNS * WINDOW_MS) / 1000
  } s: 1 board ${one.mean.toFixed(1)}, 5 boards ${five.mean.toFixed(1)}: ratio ${
    (five.mean / one.mean).toFixed(2)
  } (targets: ≤ 1.3 times one board; ≤ 100 commands/s for the whole set)`,
);
await client.close();
await redis.stop();
