/**
 * What an idle board costs Redis (issue 35): `--jobs` jobs over `--tasks`
 * tasks (default 1,000,000 over 20: about a million keys), no alert rule, no
 * browser; the board answers one overview page (asked again after a 503
 * `COUNTING`, as its `Retry-After` says, while its first pass runs), then
 * nobody asks anything. Prints the commands of that start (the first pass
 * and discovery's first walk) and its commands per second over the
 * `--quiet` seconds after the page (65: past the minute after which a board
 * counts as unwatched) and over the `--seconds` after those, with the
 * commands that weigh most. Each board (this checkout and the checkouts
 * given) runs in a process of its own (`board_server.ts`), on a keyspace
 * without the board's own keys (what the board before left). Issue 35
 * wants at most 10 commands/s. Wall time: a benchmark, not a test.
 *
 * `deno run -A tests/bench/idle_board.ts [--jobs 1000000] [--tasks 20] [--quiet 65]
 * [--seconds 30] [checkout ...]` (the load about a minute, then about 1.7 min a checkout).
 */

import { parseArgs } from "node:util";
import { ourBoard, serveBoard, type ServedBoard } from "./board_server.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { commandsOver, rateLine } from "./command_rate.ts";
import { describeLoad, startFilledRedis } from "./filled_redis.ts";
import { sleep } from "./medians.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    jobs: { type: "string", default: "1000000" },
    tasks: { type: "string", default: "20" },
    quiet: { type: "string", default: "65" },
    seconds: { type: "string", default: "30" },
  },
});
const JOBS = Number(values.jobs);
const TASKS = Number(values.tasks);
const QUIET_MS = Number(values.quiet) * 1000;
const WINDOW_MS = Number(values.seconds) * 1000;

/** GETs `path` until it is not a 503 `COUNTING`, waiting as each says; returns how many were. */
async function firstAnswer(board: ServedBoard, path: string): Promise<number> {
  for (let counting = 0;; counting++) {
    const response = await board.fetch(new Request(`http://bench/board${path}`));
    const text = await response.text();
    if (response.status !== 503 || JSON.parse(text).code !== "COUNTING") return counting;
    await sleep(Number(response.headers.get("retry-after")) * 1000);
  }
}

const filled = await startFilledRedis(JOBS, TASKS);
console.log(`## ${describeLoad(filled, JOBS, TASKS)}; no rule, no browser`);
try {
  for (const root of [undefined, ...positionals]) {
    const shared = await filled.client.sendCommand(["KEYS", "taskora:board:*"]) as string[];
    if (shared.length > 0) await filled.client.sendCommand(["DEL", ...shared]);
    const board = await serveBoard(ourBoard(root), filled.redis.url);
    try {
      let counting = 0;
      const start = await commandsOf(filled.client, async () => {
        counting = await firstAnswer(board, "/api/overview?limit=50&sort=health");
      });
      const quiet = await commandsOver(filled.client, QUIET_MS);
      const after = await commandsOver(filled.client, WINDOW_MS);
      console.log(`${board.label}:`);
      console.log(
        `  the first page: ${totalCalls(start)} commands (${counting} answers COUNTING before)`,
      );
      console.log(rateLine(`  the ${QUIET_MS / 1000} s after the last request`, quiet, QUIET_MS));
      console.log(rateLine(`  the ${WINDOW_MS / 1000} s after those`, after, WINDOW_MS));
    } finally {
      await board.close();
    }
  }
} finally {
  await filled.stop();
}
