/**
 * What one open browser costs Redis (issue 35): a board on `--tasks` tasks
 * (default 1,000, `--jobs-per-task` jobs each) with one SSE client on
 * `{basePath}/api/events` after the overview page it opened, in commands per
 * second: first with nothing moving, then while a writer adds `--rate`
 * finished jobs a second (taskora's wire format: their hashes, sets and
 * `active` and `completed` events) round-robin over `--moving` tasks. The
 * writer's own commands are subtracted. Each board (this checkout and the
 * checkouts given) runs in a process of its own (`board_server.ts`) and
 * settles for `--settle` seconds (its start-up, the first discovery pass)
 * before the windows of `--seconds`. Prints each window's rate and the
 * commands that weigh most. Issue 35 wants at most 100 commands/s moving and
 * 10 with nothing moving. Wall time: a benchmark, not a test.
 *
 * `deno run -A tests/bench/open_browser.ts [--tasks 1000] [--moving 10] [--rate 20]
 * [--settle 20] [--seconds 30] [checkout ...]` (about 1.5 min a checkout at the defaults).
 */

import { parseArgs } from "node:util";
import type { connectClient } from "../helpers/redis_server.ts";
import { jobCommands } from "../helpers/wire_writer.ts";
import { ourBoard, serveBoard } from "./board_server.ts";
import { commandsOver, rateLine } from "./command_rate.ts";
import { describeLoad, startFilledRedis } from "./filled_redis.ts";
import { sleep } from "./medians.ts";
import { openSseClients } from "./sse_clients.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    tasks: { type: "string", default: "1000" },
    "jobs-per-task": { type: "string", default: "30" },
    moving: { type: "string", default: "10" },
    rate: { type: "string", default: "20" },
    settle: { type: "string", default: "20" },
    seconds: { type: "string", default: "30" },
  },
});
const TASKS = Number(values.tasks);
const JOBS = TASKS * Number(values["jobs-per-task"]);
const MOVING = Number(values.moving);
const RATE = Number(values.rate);
const SETTLE_MS = Number(values.settle) * 1000;
const WINDOW_MS = Number(values.seconds) * 1000;
/** How often the writer sends what fell due since its last beat. */
const BEAT_MS = 100;

type Client = Awaited<ReturnType<typeof connectClient>>;

/**
 * Writes finished jobs at `RATE` a second (by the wall clock, whatever a
 * beat's round trip took) over the first `MOVING` tasks for `ms`; resolves
 * to the commands it sent, per command, to subtract.
 */
async function moveTasks(client: Client, ms: number): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  const started = performance.now();
  let written = 0;
  while (performance.now() - started < ms) {
    const commands: string[][] = [];
    for (; written < ((performance.now() - started) * RATE) / 1000; written++) {
      commands.push(
        ...jobCommands({
          task: `task-${written % MOVING}`,
          state: "completed",
          data: { written },
          result: { ok: true },
        }).commands,
      );
    }
    await Promise.all(commands.map((args) => client.sendCommand(args)));
    for (const [name] of commands) {
      sent.set(name.toLowerCase(), (sent.get(name.toLowerCase()) ?? 0) + 1);
    }
    await sleep(BEAT_MS);
  }
  return sent;
}

/** `calls` less `sent`, per command (those left above 0). */
function less(calls: Map<string, number>, sent: Map<string, number>): Map<string, number> {
  const rest = new Map<string, number>();
  for (const [name, n] of calls) {
    const left = n - (sent.get(name) ?? 0);
    if (left > 0) rest.set(name, left);
  }
  return rest;
}

const filled = await startFilledRedis(JOBS, TASKS);
console.log(
  `## ${describeLoad(filled, JOBS, TASKS)}; one SSE client; ${RATE} jobs/s over ${MOVING} tasks ` +
    `when moving; windows of ${WINDOW_MS / 1000} s after ${SETTLE_MS / 1000} s`,
);
try {
  for (const root of [undefined, ...positionals]) {
    const board = await serveBoard(ourBoard(root), filled.redis.url);
    try {
      await board.get("/api/overview?limit=50&sort=health");
      const closeStream = await openSseClients(board, 1);
      await sleep(SETTLE_MS);
      const still = await commandsOver(filled.client, WINDOW_MS);
      let sent = new Map<string, number>();
      const moving = less(
        await commandsOver(filled.client, WINDOW_MS, async () => {
          sent = await moveTasks(filled.client, WINDOW_MS);
        }),
        sent,
      );
      await closeStream();
      console.log(`${board.label}:`);
      console.log(rateLine("  nothing moving", still, WINDOW_MS, 20));
      console.log(rateLine(`  ${MOVING} tasks moving`, moving, WINDOW_MS, 20));
    } finally {
      await board.close();
    }
  }
} finally {
  await filled.stop();
}
