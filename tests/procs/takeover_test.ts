/**
 * Three CLI board processes on one Redis behind a round-robin proxy: a bulk
 * retry cancelled through a replica that neither started nor runs it, and a
 * 50,000-job bulk retry whose runner is killed with SIGKILL halfway and
 * which another replica finishes, every job retried and run exactly once by
 * a real taskora worker.
 */

import { startRedis } from "../helpers/redis_server.ts";
import { SHORT_LEASE, startBoardProcesses } from "../helpers/board_processes.ts";
import { pipeCommands } from "../helpers/redis_pipe.ts";
import { failedJobCommands } from "../helpers/wire_writer.ts";
import { redisAdapter } from "../../../shared/taskora/taskora.js";
import { takeoverTests } from "./takeover_scenario.ts";

const redis = await startRedis();
await takeoverTests("one Redis", {
  startBoards: () =>
    startBoardProcesses({ count: 3, cliArgs: ["--redis", redis.url, ...SHORT_LEASE] }),
  loadFailed: (task, count) => pipeCommands(redis.port, failedJobCommands(task, count)),
  adapter: () => redisAdapter(redis.url),
  stop: () => redis.stop(),
}, { cancelled: 20_000, killed: 50_000 });
