/**
 * What each hot path costs Redis, counted by Redis itself (`INFO
 * commandstats`), for this checkout and for other checkouts of the project
 * (a `git worktree` of an earlier head) on the same Redis and the same
 * keyspace: `GET /api/overview`, a page of 50 sorted by health, and a
 * `/metrics` scrape, at each number of tasks given. Each board runs on fake
 * timers, so no background pass lands inside a count; a path is warmed up
 * once, then counted. Counts do not jitter, so one run is the figure.
 *
 * `deno run -A tests/bench/hot_paths.ts 20,1000 ../earlier-head`
 */

import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

const [sizes = "20,1000", ...others] = Deno.args;
const heads = [
  new URL("../../", import.meta.url).pathname,
  ...others.map((p) => Deno.realPathSync(p)),
];
const PATHS = ["/api/overview", "/api/overview?limit=50&sort=health", "/metrics"];

interface BoardLike {
  fetch(request: Request): Response | Promise<Response>;
  close(): Promise<void>;
}

for (const tasks of sizes.split(",").map(Number)) {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    await fillRedis(client as never, { jobs: tasks * 8, tasks });
    console.log(`\n${tasks} tasks, ${tasks * 8} jobs`);
    for (const head of heads) {
      const { createBoardOn } = await import(`file://${head}/src/board.ts`);
      const { createRedisSource } = await import(`file://${head}/src/source/redis/mod.ts`);
      const source = createRedisSource({ url: redis.url, commandTimeoutMs: 30_000 });
      const board: BoardLike = createBoardOn(new FakeTimers(), source);
      const counts: string[] = [];
      try {
        for (const path of PATHS) {
          const get = async () => {
            const response = await board.fetch(new Request(`http://127.0.0.1/board${path}`));
            await response.body?.cancel();
          };
          await get();
          const calls = await commandsOf(client, get);
          counts.push(`${path} ${totalCalls(calls)}`);
          if (Deno.env.get("BY_COMMAND")) console.log(`    ${path}`, Object.fromEntries(calls));
        }
      } finally {
        await board.close();
        await source.close();
      }
      console.log(`  ${head}: ${counts.join(" · ")}`);
    }
  } finally {
    await client.close();
    await redis.stop();
  }
}
