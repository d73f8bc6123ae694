/**
 * What an idle board costs Redis (issue 35): `--jobs` jobs over `--tasks`
 * tasks (default 1,000,000 over 20: about a million keys), no alert rule, no
 * browser; the board answers one overview page, then nobody asks anything.
 * Prints its commands per second over the `--quiet` seconds after that
 * request (65: past the minute after which a board counts as unwatched) and
 * over the `--seconds` after those, with the commands that weigh most. Each
 * board (this checkout and the checkouts given) runs in a process of its
 * own (`board_server.ts`). Issue 35 wants at most 10 commands/s. Wall time:
 * a benchmark, not a test.
 *
 * `deno run -A tests/bench/idle_board.ts [--jobs 1000000] [--tasks 20] [--quiet 65]
 * [--seconds 30] [checkout ...]` (the load about a minute, then about 1.7 min a checkout).
 */

import { parseArgs } from "node:util";
import { ourBoard, serveBoard } from "./board_server.ts";
import { commandsOver, rateLine } from "./command_rate.ts";
import { describeLoad, startFilledRedis } from "./filled_redis.ts";

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

const filled = await startFilledRedis(JOBS, TASKS);
console.log(`## ${describeLoad(filled, JOBS, TASKS)}; no rule, no browser`);
try {
  for (const root of [undefined, ...positionals]) {
    const board = await serveBoard(ourBoard(root), filled.redis.url);
    try {
      await board.get("/api/overview?limit=50&sort=health");
      const quiet = await commandsOver(filled.client, QUIET_MS);
      const after = await commandsOver(filled.client, WINDOW_MS);
      console.log(`${board.label}:`);
      console.log(rateLine(`  the ${QUIET_MS / 1000} s after the last request`, quiet, QUIET_MS));
      console.log(rateLine(`  the ${WINDOW_MS / 1000} s after those`, after, WINDOW_MS));
    } finally {
      await board.close();
    }
  }
} finally {
  await filled.stop();
}
