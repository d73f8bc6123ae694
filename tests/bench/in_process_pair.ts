/**
 * Two checkouts' boards in one process, on one Redis holding 10 schedules
 * written by a taskora 0.5.0 App, their GETs alternating (A B, B A, …) in
 * rounds: per round each board's median time per GET of a path and their
 * ratio; printed, the ratio's median over the rounds with its spread.
 *
 * What the board's own code costs a request, without HTTP between two
 * processes: over HTTP on the shared two-core machine a request's time is
 * mostly the round trips and the load (`upstream.ts` measures that, beside
 * the upstream board), and a cut of a few microseconds inside the board is
 * lost in their spread. Both boards in one process meet the same moment's
 * load and the same Redis; each checkout's modules load from its own
 * directory.
 *
 * `deno run -A tests/bench/in_process_pair.ts <checkout> [--paths /api/config,/api/schedules,/api/overview] [--rounds 21] [--requests 201]`
 * compares this checkout (first) with `<checkout>` (a `git worktree` of
 * another head).
 */

import { parseArgs } from "node:util";
import { startRedis } from "../helpers/redis_server.ts";
import { median, spreadOf } from "./medians.ts";
import { writeNightlySchedules } from "./nightly_schedules.ts";

const SCHEDULES = 10;
const WARM_UP = 2_000;

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    paths: { type: "string", default: "/api/config,/api/schedules,/api/overview" },
    rounds: { type: "string", default: "21" },
    requests: { type: "string", default: "201" },
  },
});
if (positionals.length !== 1) throw new Error("give one other checkout: a git worktree's path");
const checkouts = [new URL("../../", import.meta.url).pathname, positionals[0]].map((root) =>
  Deno.realPathSync(root)
);

interface Closing {
  close(): Promise<void>;
}

interface Fetcher extends Closing {
  fetch(request: Request): Response | Promise<Response>;
}

const redis = await startRedis();
const boards: Fetcher[] = [];
const sources: Closing[] = [];
try {
  await writeNightlySchedules(redis.url, SCHEDULES);
  for (const root of checkouts) {
    const { createBoard } = await import(`file://${root}/mod.ts`);
    const { createRedisSource } = await import(`file://${root}/src/source/redis/mod.ts`);
    const source = createRedisSource({ url: redis.url });
    sources.push(source);
    boards.push(createBoard(source));
  }
  /** GETs `path` of board `side`; its time (ms). */
  const timedGet = async (side: number, path: string): Promise<number> => {
    const start = performance.now();
    const response = await boards[side].fetch(new Request(`http://bench/board${path}`));
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${checkouts[side]} ${path}: ${response.status}`);
    return performance.now() - start;
  };
  const paths = values.paths.split(",");
  for (const path of paths) {
    for (let i = 0; i < WARM_UP; i++) for (const side of [0, 1]) await timedGet(side, path);
  }
  console.log(`${checkouts[0]} against ${checkouts[1]}, in one process:`);
  for (const path of paths) {
    const medians: [number[], number[]] = [[], []];
    for (let round = 0; round < Number(values.rounds); round++) {
      const times: [number[], number[]] = [[], []];
      for (let i = 0; i < Number(values.requests); i++) {
        for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
          times[side].push(await timedGet(side, path));
        }
      }
      medians[0].push(median(times[0]) * 1000);
      medians[1].push(median(times[1]) * 1000);
    }
    const ratios = medians[0].map((us, round) => us / medians[1][round]);
    console.log(
      `  ${path}: ${median(medians[0]).toFixed(1)} against ${
        median(medians[1]).toFixed(1)
      } µs, the ratio per round ${spreadOf(ratios, 3)}`,
    );
  }
} finally {
  await Promise.all(boards.map((board) => board.close()));
  await Promise.all(sources.map((source) => source.close()));
  await redis.stop();
}
