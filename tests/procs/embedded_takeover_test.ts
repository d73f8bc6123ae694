/**
 * The takeover tests of `takeover_test.ts` with the board embedded in an
 * app: three processes that each run a real taskora App with
 * `createBoard(app)` (`embedded_board.ts`), on one Redis, behind a
 * round-robin proxy.
 */

import { startRedis } from "../helpers/redis_server.ts";
import { SHORT_LEASE, startBoardProcesses } from "../helpers/board_processes.ts";
import { pipeCommands } from "../helpers/redis_pipe.ts";
import { failedJobCommands } from "../helpers/wire_writer.ts";
import { redisAdapter } from "../../../shared/taskora/taskora.js";
import { takeoverTests } from "./takeover_scenario.ts";

const EMBEDDED = new URL("./embedded_board.ts", import.meta.url).pathname;
const ARGS = ["--task", "mail", "--task", "report", ...SHORT_LEASE];

const redis = await startRedis();
await takeoverTests("embedded boards", {
  startBoards: () =>
    startBoardProcesses({
      count: 3,
      args: (
        port,
      ) => ["--allow-all", EMBEDDED, "--redis", redis.url, "--port", `${port}`, ...ARGS],
    }),
  loadFailed: (task, count) => pipeCommands(redis.port, failedJobCommands(task, count)),
  adapter: () => redisAdapter(redis.url),
  stop: () => redis.stop(),
  // 20,000 jobs, not takeover_test.ts's 50,000: what embedding adds (boards inside Apps that
  // also run taskora) is the same as at 50,000, and takeover_test.ts keeps the scale on one
  // Redis. Not 5,000: on a quiet machine those 50 steps ran to the end before the halfway
  // look saw the watcher's progress frame ("killed halfway, not after the end" failed).
}, { cancelled: 20_000, killed: 20_000 });
