/**
 * Where the overview's time goes at 1,000,000 jobs over 20 tasks (issue 12):
 * the request as a client sees it, the time Redis spends on it (`INFO
 * commandstats` usec), and the board's own time: the same request answered
 * by a stand-in for the Redis client that replays the replies Redis gave, at
 * once (no socket, no Redis work, no node-redis parsing). Then the same
 * keyspace with its queues drained (wait lists, active lists and
 * prioritized sets emptied; delayed and finished jobs kept), as most
 * production queues are most of the time: an empty queue's head is not read.
 *
 * Medians of interleaved runs; the machine's noise moves them by several
 * tenths of a millisecond from one process to the next, so compare parts
 * within one run. `deno run --allow-all tests/bench/overview_parts.ts [jobs]`.
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

const TASKS = 20;
const RUNS = 301;
const jobs = Number(Deno.args[0] ?? 1_000_000);

type Client = Awaited<ReturnType<typeof connectClient>>;
type Board = ReturnType<typeof createBoard>;

function median(values: number[]): number {
  return values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
}

/**
 * Microseconds Redis spent so far on the overview's reads: its scripts (their inner commands
 * are inside the EVALSHA's time) and the minute counters' MGETs. Its two INFO calls are left
 * out with the bench's own INFO commandstats (some 20 µs).
 */
async function redisMicros(client: Client): Promise<number> {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  let sum = 0;
  for (const [, name, usec] of info.matchAll(/^cmdstat_([^:]+):calls=\d+,usec=(\d+)/gm)) {
    if (name === "evalsha" || name === "mget") sum += Number(usec);
  }
  return sum;
}

/**
 * A client that passes commands to `real` and remembers each reply; while
 * `replaying`, a command seen before is answered from memory, at once.
 */
function replayingClient(real: Client): { client: Client; replay(on: boolean): void } {
  let replaying = false;
  const replies = new Map<string, unknown>();
  const client = new Proxy(real, {
    get(target, property, receiver) {
      if (property === "sendCommand") {
        return async (args: string[]) => {
          const key = args.join("\0");
          if (replaying && replies.has(key)) return replies.get(key);
          const reply = await target.sendCommand(args);
          replies.set(key, reply);
          return reply;
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { client, replay: (on) => void (replaying = on) };
}

async function overview(board: Board): Promise<number> {
  const started = performance.now();
  const response = await board.fetch(new Request("http://bench/board/api/overview"));
  await response.arrayBuffer();
  return performance.now() - started;
}

/** The overview's median, Redis's median share and the board's own median, interleaved. */
async function measure(
  live: Board,
  replayed: Board,
  replay: (on: boolean) => void,
  client: Client,
) {
  for (let i = 0; i < 50; i++) {
    await overview(live);
    await overview(replayed);
  }
  const liveTimes: number[] = [];
  const boardTimes: number[] = [];
  let redisTime = 0;
  for (let i = 0; i < RUNS; i++) {
    const before = await redisMicros(client);
    liveTimes.push(await overview(live));
    redisTime += (await redisMicros(client)) - before;
    replay(true);
    boardTimes.push(await overview(replayed));
    replay(false);
  }
  return {
    request: median(liveTimes),
    redis: redisTime / RUNS / 1000,
    board: median(boardTimes),
  };
}

const redis = await startRedis();
const client = await connectClient(redis.url);
await fillRedis(client as never, { jobs, tasks: TASKS });
console.log(`\n## The overview at ${jobs.toLocaleString("en")} jobs over ${TASKS} tasks`);

const standIn = replayingClient(await connectClient(redis.url));
const sources = [
  createRedisSource({ url: redis.url, reconcileCommandsPerSecond: 1 }),
  createRedisSource({ client: standIn.client as never, reconcileCommandsPerSecond: 1 }),
];
const [live, replayed] = sources.map((source) => createBoard(source));
const rows: string[] = [];
const report = (label: string, parts: Awaited<ReturnType<typeof measure>>) =>
  rows.push(
    `| ${label} | ${parts.request.toFixed(2)} ms | ${parts.redis.toFixed(2)} ms | ` +
      `${parts.board.toFixed(2)} ms | ${
        (parts.request - parts.redis - parts.board).toFixed(2)
      } ms |`,
  );
report("every queue busy", await measure(live, replayed, standIn.replay, client));
const tasks = await sources[0].listTasks();
for (const task of tasks) {
  const keys = taskKeys(task);
  await client.del([keys.wait, keys.active, keys.prioritized]);
}
report("queues drained", await measure(live, replayed, standIn.replay, client));

console.log(
  "| keyspace | request (median) | Redis (mean) | the board's own (median) | the rest: client, wire, loop |",
);
console.log("|---|---|---|---|---|");
for (const row of rows) console.log(row);

for (const board of [live, replayed]) await board.close();
for (const source of sources) await source.close();
await standIn.client.close();
await client.close();
await redis.stop();
