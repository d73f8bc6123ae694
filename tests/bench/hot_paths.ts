/**
 * What each hot path costs Redis, counted by Redis itself (`INFO
 * commandstats`), and its median time, for this checkout and for other
 * checkouts of the project (a `git worktree` of an earlier head) on the same
 * Redis and the same keyspace: `GET /api/overview`, a page of 50 sorted by
 * health (what the UI asks), the 24 h throughput of every task and a
 * `/metrics` scrape, at each number of tasks given (`--jobs-per-task` jobs
 * each, `fillCommands`'s mix of states). Each board runs on fake timers, so
 * no background pass lands inside a count; a path is warmed up once, then
 * counted once (counts do not jitter) and timed `--runs` times.
 *
 * First, per head, the first overview page of a just-started board (real
 * timers, a source of its own): what Redis ran and how long until it
 * answered, as a new user meets it (issue 35 wants it served from one
 * discovery pass, not from reading every task's counts on the request path),
 * and what its next page ran. Each head starts on a keyspace without the
 * board's own state (`taskora:board:*`): no live state, kept day or lease a
 * head before it left.
 *
 * `deno run -A tests/bench/hot_paths.ts [20,1000] [--jobs-per-task 30] [--runs 11] [checkout ...]`
 * (about a minute at the defaults; `BY_COMMAND=1` prints each count by command).
 */

import { parseArgs } from "node:util";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { describeLoad, startFilledRedis } from "./filled_redis.ts";
import { median } from "./medians.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    "jobs-per-task": { type: "string", default: "30" },
    runs: { type: "string", default: "11" },
  },
});
const [sizes = "20,1000", ...others] = positionals;
const JOBS_PER_TASK = Number(values["jobs-per-task"]);
const RUNS = Number(values.runs);
const heads = [
  new URL("../../", import.meta.url).pathname,
  ...others.map((p) => Deno.realPathSync(p)),
];
const FIRST_PAGE = "/api/overview?limit=50&sort=health";
const PATHS = ["/api/overview", FIRST_PAGE, "/api/throughput", "/metrics"];

interface BoardLike {
  fetch(request: Request): Response | Promise<Response>;
  close(): Promise<void>;
}

/**
 * GETs `path` of `board` and reads the answer whole, asking again after a
 * 503 `COUNTING` (a first pass under way) as the UI does; throws unless it
 * is then a 200.
 */
async function get(board: BoardLike, path: string): Promise<string> {
  for (;;) {
    const response = await board.fetch(new Request(`http://127.0.0.1/board${path}`));
    const text = await response.text();
    if (response.status === 503 && JSON.parse(text).code === "COUNTING") {
      counting++;
      await new Promise((resolve) =>
        setTimeout(resolve, Number(response.headers.get("retry-after")) * 1000)
      );
      continue;
    }
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${text}`);
    return text;
  }
}

/** How many answers were 503 `COUNTING`, asked again. */
let counting = 0;

/** Deletes the board's own keys (`taskora:board:*`): what a head before left. */
async function forgetBoardState(client: Awaited<ReturnType<typeof startFilledRedis>>["client"]) {
  for await (const keys of client.scanIterator({ MATCH: "taskora:board:*", COUNT: 1000 })) {
    if (keys.length > 0) await client.del(keys);
  }
}

function byCommand(label: string, calls: Map<string, number>): void {
  if (Deno.env.get("BY_COMMAND")) console.log(`    ${label}`, Object.fromEntries(calls));
}

for (const tasks of sizes.split(",").map(Number)) {
  const jobs = tasks * JOBS_PER_TASK;
  const filled = await startFilledRedis(jobs, tasks);
  const client = filled.client;
  try {
    console.log(`\n## ${describeLoad(filled, jobs, tasks)}`);
    for (const head of heads) {
      const { createBoardOn } = await import(`file://${head}/src/board.ts`);
      const { createBoard } = await import(`file://${head}/mod.ts`);
      const { createRedisSource } = await import(`file://${head}/src/source/redis/mod.ts`);

      await forgetBoardState(client);
      const freshSource = createRedisSource({ url: filled.redis.url, commandTimeoutMs: 30_000 });
      const fresh: BoardLike = createBoard(freshSource);
      let firstMs = 0;
      let firstPage = "";
      counting = 0;
      const first = await commandsOf(client, async () => {
        const t0 = performance.now();
        firstPage = await get(fresh, FIRST_PAGE);
        firstMs = performance.now() - t0;
      });
      const next = await commandsOf(client, () => get(fresh, FIRST_PAGE));
      await fresh.close();
      await freshSource.close();
      await forgetBoardState(client);
      byCommand("first page", first);
      byCommand("its next page", next);
      // A board that answers before it knows every task shows fewer rows: say how many it had.
      const { tasks: rows, matched } = JSON.parse(firstPage);
      const figures = [
        `first page of a just-started board ${totalCalls(first)} (${
          firstMs.toFixed(0)
        } ms; ${rows.length} rows of ${matched} tasks; ${counting} answers COUNTING before), ` +
        `its next page ${totalCalls(next)}`,
      ];

      const source = createRedisSource({ url: filled.redis.url, commandTimeoutMs: 30_000 });
      const board: BoardLike = createBoardOn(new FakeTimers(), source);
      try {
        for (const path of PATHS) {
          await get(board, path);
          const calls = await commandsOf(client, () => get(board, path));
          byCommand(path, calls);
          const ms: number[] = [];
          for (let run = 0; run < RUNS; run++) {
            const t0 = performance.now();
            await get(board, path);
            ms.push(performance.now() - t0);
          }
          figures.push(`${path} ${totalCalls(calls)} (${median(ms).toFixed(1)} ms)`);
        }
      } finally {
        await board.close();
        await source.close();
      }
      console.log(`  ${head}: commands (median time): ${figures.join(" · ")}`);
    }
  } finally {
    await filled.stop();
  }
}
