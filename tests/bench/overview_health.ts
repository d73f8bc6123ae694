/**
 * What health's `noProgress` read costs the overview at 1,000 tasks: for
 * every task with jobs waiting, the overview reads the newest
 * `HEALTH_EVENT_DEPTH` (200) entries of its event stream (see
 * `src/source/redis/activity.ts`). A real Redis holds 1,000 tasks in
 * taskora's wire format (`tests/helpers/fleet.ts`'s names), each with three
 * jobs waiting and an event stream of 250 entries laid out as taskora writes
 * them (`event`, `jobId`): older takes and finishes, then, newest, dispatches
 * that nobody took (the stream of a task whose workers stopped), so that the
 * read walks its 200 entries. `GET /api/overview` is asked, interleaved, of a
 * board that reads the streams and of one whose source offers no such read
 * (the overview then judges without it), on the same keyspace. Prints the
 * medians, their ratio and the commands Redis ran per request (`INFO
 * commandstats`, commands inside scripts included).
 *
 * `deno run --allow-all tests/bench/overview_health.ts [--runs 41]`.
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { fleetTask } from "../helpers/fleet.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { jobCommands } from "../helpers/wire_writer.ts";

const TASKS = 1000;
const WAITING = 3;
const STREAM = 250;
const at = Deno.args.indexOf("--runs");
const RUNS = at < 0 ? 41 : Number(Deno.args[at + 1]);

type Client = Awaited<ReturnType<typeof connectClient>>;
type Board = ReturnType<typeof createBoard>;

const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Commands Redis ran so far (the INFO asking it left out) and the µs it spent on the overview's
 * scripts and MGETs (a script's time holds its inner commands', which are counted apart too).
 */
async function redisCounters(client: Client): Promise<{ calls: number; usec: number }> {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  let calls = 0;
  let usec = 0;
  for (const [, name, n, us] of info.matchAll(/^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/gm)) {
    if (name !== "info") calls += Number(n);
    if (name === "evalsha" || name === "mget") usec += Number(us);
  }
  return { calls, usec };
}

/**
 * Each task's waiting jobs, dispatched `waitedMs` ago, and its stream: taken and finished jobs,
 * then dispatches nobody took.
 */
async function writeStuckFleet(client: Client, waitedMs: number): Promise<void> {
  const ts = Date.now() - waitedMs;
  for (let i = 0; i < TASKS; i++) {
    const task = fleetTask(i);
    const { events } = taskKeys(task);
    const commands: string[][] = [];
    for (let n = 0; n < WAITING; n++) {
      commands.push(...jobCommands({ task, state: "waiting", ts }).commands);
    }
    for (let n = WAITING; n < STREAM; n++) {
      const jobId = crypto.randomUUID();
      const kinds = n < STREAM - 200 ? ["active", "completed"] : ["waiting"];
      for (const kind of kinds) {
        commands.push(["XADD", events, "MAXLEN", "~", "10000", "*", "event", kind, "jobId", jobId]);
      }
    }
    await Promise.all(commands.map((args) => client.sendCommand(args)));
  }
}

/** The source without its event-stream read: the overview judges health without it. */
function withoutActivity(source: TaskSource): TaskSource {
  return new Proxy(source, {
    get(target, property) {
      if (property === "readStreams") return undefined;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

async function overview(board: Board): Promise<number> {
  const started = performance.now();
  const response = await board.fetch(new Request("http://bench/board/api/overview"));
  await response.arrayBuffer();
  return performance.now() - started;
}

/** Medians of the overview with and without the read, interleaved, on the keyspace as it is. */
async function measure(client: Client, boards: Record<"with" | "without", Board>) {
  // Discovery and the scripts' first load are not the request's cost.
  for (let i = 0; i < 5; i++) for (const board of Object.values(boards)) await overview(board);
  const runs = { with: [] as Run[], without: [] as Run[] };
  for (let i = 0; i < RUNS; i++) {
    for (const kind of ["with", "without"] as const) {
      const before = await redisCounters(client);
      const ms = await overview(boards[kind]);
      const after = await redisCounters(client);
      runs[kind].push({
        ms,
        redisMs: (after.usec - before.usec) / 1000,
        calls: after.calls - before.calls,
      });
    }
  }
  const of = (kind: "with" | "without", part: keyof Run) =>
    median(runs[kind].map((run) => run[part]));
  for (const kind of ["with", "without"] as const) {
    console.log(
      `| ${kind} the stream read | ${of(kind, "ms").toFixed(1)} ms | ${
        of(kind, "redisMs").toFixed(1)
      } ms | ${of(kind, "calls")} |`,
    );
  }
  console.log(
    `| ratio | ${(of("with", "ms") / of("without", "ms")).toFixed(2)} × | ${
      (of("with", "redisMs") / of("without", "redisMs")).toFixed(2)
    } × | ${(of("with", "calls") / of("without", "calls")).toFixed(2)} × |`,
  );
}

interface Run {
  ms: number;
  redisMs: number;
  calls: number;
}

const redis = await startRedis();
const client = await connectClient(redis.url);
const sources = [createRedisSource({ url: redis.url }), createRedisSource({ url: redis.url })];
const boards = { with: createBoard(sources[0]), without: createBoard(withoutActivity(sources[1])) };
try {
  console.log(
    `\n## The overview at ${TASKS} tasks, ${WAITING} jobs waiting and ${STREAM} stream entries each`,
  );
  // Under and past health.maxIdleMs (5 min): only the second is read.
  for (const waitedMs of [60_000, 10 * 60_000]) {
    await client.sendCommand(["FLUSHALL"]);
    await writeStuckFleet(client, waitedMs);
    console.log(`\n### The jobs waited ${waitedMs / 60_000} min\n`);
    console.log(
      "| overview | request (median) | Redis: scripts, MGETs (median) | commands (median) |",
    );
    console.log("|---|---|---|---|");
    await measure(client, boards);
  }
} finally {
  for (const board of Object.values(boards)) await board.close();
  for (const source of sources) await source.close();
  await client.close();
  await redis.stop();
}
