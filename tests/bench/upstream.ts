/**
 * This board beside the upstream `@taskora/board` (issue 35), on one Redis:
 * 20 tasks (`fillCommands`'s mix of states, an hour of counters) and 10
 * schedules written by a taskora 0.5.0 App, at each size of `--jobs`. Each
 * board runs in a process of its own (`board_server.ts`; the upstream one
 * extracted from the taskora mirror, `upstream_board.ts`), both served by
 * `Deno.serve`, both up at once: this checkout (then each checkout given, in
 * a pair of its own) and the upstream.
 *
 * Made for a noisy shared machine, where a board measured alone meets
 * another minute's load than the board measured after it: the two boards'
 * requests alternate (A B B A A B …, one at a time, so neither waits on the
 * other), in `--rounds` rounds of `--requests` requests of each path per
 * board. Each round gives each board's median and their ratio, so a slow
 * minute weighs on both sides of a ratio; the ratio's median over the
 * rounds is the figure, its spread says how far to trust it. Each child's
 * CPU time over a round (`process_cpu.ts`, every thread, its background work
 * included) divided by its requests is its CPU per request: the cost the
 * load does not move. Then each board's commands per request are counted
 * alone (`INFO commandstats`, each board's own INFOs included, the other board stopped by `SIGSTOP` so that its
 * background work adds none), with what Redis spent on them (`INFO cpu`);
 * `BY_COMMAND=1` prints them by command. With `--streams N`, N SSE clients
 * hold each board's event stream open throughout (issue 35's "with 100 event
 * streams open").
 *
 * `/api/config` reads no Redis on either board: its median is the floor (HTTP
 * between two processes, each board's middleware), and each path's ratio is
 * also given over the floor (what the path adds to it, against the
 * upstream's). Issue 35 wants the overview at most 0.5×, the schedules at
 * most 1×. Medians, not assertions: a benchmark, not a test.
 *
 * `deno run -A tests/bench/upstream.ts [--jobs 200000,1000000] [--rounds 15] [--requests 21]
 * [--streams 0] [checkout ...]`
 * (about 2 min at 200,000 jobs; 1,000,000 loads in about a minute more;
 * a checkout is another head's `git worktree`, e.g. /work/prevhead).
 */

import { parseArgs } from "node:util";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import {
  type BoardTarget,
  ourBoard,
  serveBoard,
  type ServedBoard,
  upstreamBoard,
} from "./board_server.ts";
import { describeLoad, type FilledRedis, startFilledRedis } from "./filled_redis.ts";
import { median, sleep, spreadOf } from "./medians.ts";
import { writeNightlySchedules } from "./nightly_schedules.ts";
import { cpuMsOf, redisCpuMs } from "./process_cpu.ts";
import { openSseClients } from "./sse_clients.ts";

const TASKS = 20;
const SCHEDULES = 10;
/** What each board answers before the rounds: its JIT and caches warm, our feed's first pass done. */
const WARM_UP = 50;
const FLOOR = "/api/config";
const PATHS = ["/api/overview", "/api/schedules", FLOOR] as const;
type Path = typeof PATHS[number];

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    jobs: { type: "string", default: "200000" },
    rounds: { type: "string", default: "15" },
    requests: { type: "string", default: "21" },
    streams: { type: "string", default: "0" },
  },
});
const ROUNDS = Number(values.rounds);
const REQUESTS = Number(values.requests);
const STREAMS = Number(values.streams);

/**
 * Frees the leases a board of the pair before holds (`taskora:board:lease:*`):
 * it was killed, so they run on for a lease period (10 s), and the next board
 * would be a follower meanwhile, reading every task directly where its
 * leader's live state is missing.
 */
async function freeLeases(client: FilledRedis["client"]): Promise<void> {
  const leases = await client.sendCommand(["KEYS", "taskora:board:lease:*"]) as string[];
  if (leases.length > 0) await client.sendCommand(["DEL", ...leases]);
}

/** GETs `path` of `board`; throws unless it answers 200. */
async function getOk(board: ServedBoard, path: string): Promise<void> {
  const status = await board.get(path);
  if (status !== 200) throw new Error(`${board.label} ${path}: ${status}`);
}

/**
 * GETs `path` of `board` until it answers 200: our board's first overview
 * answers 503 COUNTING while its feed's first pass outlasts the wait (a
 * million jobs on a loaded machine), and asks to be asked again.
 */
async function firstOk(board: ServedBoard, path: string): Promise<void> {
  for (let attempt = 1;; attempt++) {
    const status = await board.get(path);
    if (status === 200) return;
    if (status !== 503 || attempt === 30) throw new Error(`${board.label} ${path}: ${status}`);
    await sleep(2_000);
  }
}

/** One round of one path: each board's median (ms) and CPU per request (ms). */
interface RoundFigures {
  ms: [number, number];
  cpuMs: [number, number];
}

/**
 * `REQUESTS` GETs of `path` from each of the two boards, alternating which
 * goes first (A B, B A, …), one request at a time.
 */
async function interleavedRound(pair: [ServedBoard, ServedBoard], path: Path) {
  const times: [number[], number[]] = [[], []];
  const cpuBefore = await Promise.all(pair.map((board) => cpuMsOf(board.pid)));
  for (let i = 0; i < REQUESTS; i++) {
    for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
      const t0 = performance.now();
      await getOk(pair[side], path);
      times[side].push(performance.now() - t0);
    }
  }
  const cpuAfter = await Promise.all(pair.map((board) => cpuMsOf(board.pid)));
  return {
    ms: [median(times[0]), median(times[1])],
    cpuMs: [0, 1].map((side) => (cpuAfter[side] - cpuBefore[side]) / REQUESTS),
  } as RoundFigures;
}

/** What `board` costs Redis per GET of `path`, the other board stopped: commands and Redis's CPU (ms). */
async function countAlone(
  client: FilledRedis["client"],
  board: ServedBoard,
  other: ServedBoard,
  path: Path,
) {
  other.pause();
  try {
    const cpuBefore = await redisCpuMs(client);
    const calls = await commandsOf(client, async () => {
      for (let i = 0; i < REQUESTS; i++) await getOk(board, path);
    }, { withInfo: true });
    const redisMs = (await redisCpuMs(client) - cpuBefore) / REQUESTS;
    if (Deno.env.get("BY_COMMAND")) {
      console.log(`    ${board.label} ${path}`, Object.fromEntries(calls));
    }
    return { commands: totalCalls(calls) / REQUESTS, redisMs };
  } finally {
    other.resume();
  }
}

/** Measures `ours` beside the upstream, both up at once, and prints a line per path. */
async function comparePair(filled: FilledRedis, ours: BoardTarget, upstream: BoardTarget) {
  await freeLeases(filled.client);
  const pair = [
    await serveBoard(ours, filled.redis.url),
    await serveBoard(upstream, filled.redis.url),
  ] as [ServedBoard, ServedBoard];
  const closeStreams = await Promise.all(pair.map((board) => openSseClients(board, STREAMS)));
  try {
    for (const path of PATHS) {
      for (const board of pair) await firstOk(board, path);
      for (let i = 0; i < WARM_UP; i++) for (const board of pair) await getOk(board, path);
    }
    const rounds = new Map<Path, RoundFigures[]>(PATHS.map((path) => [path, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of PATHS) rounds.get(path)!.push(await interleavedRound(pair, path));
    }
    console.log(`${pair[0].label} against ${pair[1].label}:`);
    const floors = rounds.get(FLOOR)!;
    for (const path of PATHS) {
      const figures = rounds.get(path)!;
      const ratios = figures.map(({ ms }) => ms[0] / ms[1]);
      const overFloor = figures.map(({ ms }, round) =>
        (ms[0] - floors[round].ms[0]) / (ms[1] - floors[round].ms[1])
      );
      const side = (i: 0 | 1) => ({
        ms: median(figures.map(({ ms }) => ms[i])),
        cpuMs: median(figures.map(({ cpuMs }) => cpuMs[i])),
      });
      const [a, b] = [side(0), side(1)];
      const [countA, countB] = [
        await countAlone(filled.client, pair[0], pair[1], path),
        await countAlone(filled.client, pair[1], pair[0], path),
      ];
      console.log(
        `  ${path}: ${a.ms.toFixed(2)} against ${b.ms.toFixed(2)} ms, the ratio per round ${
          spreadOf(ratios)
        }` + (path === FLOOR ? "" : `, over the floor ${spreadOf(overFloor)}`) +
          `; CPU per request ${a.cpuMs.toFixed(2)} against ${b.cpuMs.toFixed(2)} ms (${
            (a.cpuMs / b.cpuMs).toFixed(2)
          }×); Redis per request ${countA.commands.toFixed(0)} against ${
            countB.commands.toFixed(0)
          } commands, ${countA.redisMs.toFixed(3)} against ${countB.redisMs.toFixed(3)} ms of CPU`,
      );
    }
  } finally {
    await Promise.all(closeStreams.map((close) => close()));
    await Promise.all(pair.map((board) => board.close()));
  }
}

async function measure(jobs: number): Promise<void> {
  const filled = await startFilledRedis(jobs, TASKS);
  await writeNightlySchedules(filled.redis.url, SCHEDULES);
  console.log(
    `\n## ${describeLoad(filled, jobs, TASKS)}; ${SCHEDULES} schedules; ${STREAMS} event ` +
      `streams open; ${ROUNDS} rounds of ${REQUESTS} requests per path and board`,
  );
  const upstream = await upstreamBoard(TASKS);
  try {
    for (const ours of [ourBoard(), ...positionals.map((root) => ourBoard(root))]) {
      await comparePair(filled, ours, upstream);
    }
  } finally {
    await upstream.cleanup?.();
    await filled.stop();
  }
}

for (const jobs of values.jobs.split(",").map(Number)) await measure(jobs);
