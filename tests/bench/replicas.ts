/**
 * The replicas benchmark (issues 23 and 35): what 1 and 5 watched boards on
 * one Redis cost it, in commands per second (`INFO commandstats` deltas, the
 * commands scripts run included), at `--jobs` jobs over 20 tasks (one in
 * eight delayed, one in eight retrying). Each board is a process of its own
 * (`board_server.ts`: this checkout's, or each checkout's given) with 20 SSE
 * clients, so that someone watches it. Prints the start-up (the first
 * `--startup` seconds, while each board discovers and the leader is chosen),
 * then `--runs` runs of `--window` seconds, by kind of work; then the median
 * of the runs, the mean over them, and the ratio of 5 boards to 1 (issue 35
 * wants at most 1.3).
 *
 * `deno run -A tests/bench/replicas.ts [--jobs 200000] [--startup 30] [--runs 2] [--window 25]
 * [checkout ...]` (about 3 min a checkout). The figures of docs/cost.md are one discovery
 * cycle at a million jobs: `--jobs 1000000 --startup 45 --runs 4` (about 6 min).
 */

import { parseArgs } from "node:util";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { type BoardTarget, ourBoard, serveBoard } from "./board_server.ts";
import { commandsOver, perSecond } from "./command_rate.ts";
import { describeLoad, type FilledRedis, startFilledRedis } from "./filled_redis.ts";
import { median, sleep } from "./medians.ts";
import { openSseClients } from "./sse_clients.ts";

const TASKS = 20;
const SSE_CLIENTS = 20;

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    jobs: { type: "string", default: "200000" },
    startup: { type: "string", default: "30" },
    runs: { type: "string", default: "2" },
    window: { type: "string", default: "25" },
  },
});
const JOBS = Number(values.jobs);
const STARTUP_MS = Number(values.startup) * 1000;
const RUNS = Number(values.runs);
const WINDOW_MS = Number(values.window) * 1000;

/** Starts `count` boards of `target`, each with its SSE clients; returns how to stop them. */
async function watchedBoards(target: BoardTarget, url: string, count: number) {
  const boards = await Promise.all(Array.from({ length: count }, () => serveBoard(target, url)));
  const closers = await Promise.all(boards.map((board) => openSseClients(board, SSE_CLIENTS)));
  return async () => {
    await Promise.all(closers.map((close) => close()));
    await Promise.all(boards.map((board) => board.close()));
  };
}

/** One line of what `calls` cost over `ms`, by kind of work. */
function line(label: string, calls: Map<string, number>, ms = WINDOW_MS): string {
  const rate = (names?: string[]) => perSecond(calls, ms, names).toFixed(1);
  return `${label}: ${rate()} commands/s: reconcile ${rate(["zscan", "hget"])}/s, discovery ${
    rate(["scan"])
  } SCAN/s, stats frames ${rate(["evalsha", "llen", "zcard"])}/s, event reader ${
    rate(["xread"])
  }/s, leases and shared results ${rate(["set", "get", "pexpire", "pttl", "del"])}/s`;
}

/** 1 and then 5 boards of `target`: the median and mean commands/s of each set. */
async function measure(filled: FilledRedis, target: BoardTarget) {
  const steady = new Map<number, { median: number; mean: number }>();
  for (const count of [1, 5]) {
    // A fresh start each time: what the boards shared before is gone, as for a new replica set.
    const shared = await filled.client.sendCommand(["KEYS", "taskora:board:*"]) as string[];
    if (shared.length > 0) await filled.client.sendCommand(["DEL", ...shared]);
    let stop = async () => {};
    const startup = await commandsOf(filled.client, async () => {
      stop = await watchedBoards(target, filled.redis.url, count);
      await sleep(STARTUP_MS);
    });
    console.log(
      line(`  ${count} board(s), start-up (${STARTUP_MS / 1000} s)`, startup, STARTUP_MS),
    );
    const rates: number[] = [];
    let total = 0;
    for (let run = 0; run < RUNS; run++) {
      const calls = await commandsOver(filled.client, WINDOW_MS);
      rates.push(perSecond(calls, WINDOW_MS));
      total += totalCalls(calls);
      console.log(line(`  ${count} board(s), run ${run + 1}`, calls));
    }
    await stop();
    steady.set(count, { median: median(rates), mean: total / (RUNS * WINDOW_MS / 1000) });
  }
  return { one: steady.get(1)!, five: steady.get(5)! };
}

const filled = await startFilledRedis(JOBS, TASKS);
console.log(
  `## ${describeLoad(filled, JOBS, TASKS)}; ${SSE_CLIENTS} SSE clients per board, ${RUNS} runs ` +
    `of ${WINDOW_MS / 1000} s each`,
);
try {
  for (const root of [undefined, ...positionals]) {
    const target = ourBoard(root);
    console.log(target.label);
    const { one, five } = await measure(filled, target);
    console.log(
      `  median of the runs: 1 board ${one.median.toFixed(1)} commands/s, 5 boards ${
        five.median.toFixed(1)
      }: ratio ${(five.median / one.median).toFixed(2)}; mean over ${
        (RUNS * WINDOW_MS) / 1000
      } s: 1 board ${one.mean.toFixed(1)}, 5 boards ${five.mean.toFixed(1)}: ratio ${
        (five.mean / one.mean).toFixed(2)
      } (targets: ≤ 1.3 times one board; ≤ 100 commands/s for the whole set)`,
    );
  }
} finally {
  await filled.stop();
}
