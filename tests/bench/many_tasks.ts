/**
 * The many-tasks benchmark (issue 22): 10,000 tasks in a real Redis (one
 * job in each of eight states per task, an hour of throughput counters),
 * written in taskora's wire format. The board runs in a child process (this
 * file with `--serve`) so that its memory is its own. Prints the board's RSS
 * after start, then per round of 4 `GET /metrics` and 4 `GET /api/overview`
 * in parallel: the peak RSS (the kernel's high-water mark, `VmHWM`), the
 * heap after it, the scrape's size and the round's median time.
 *
 * `deno run --allow-all tests/bench/many_tasks.ts [tasks]` (default 10000).
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";
import { spawnBoardProcess } from "./board_process.ts";

const PARALLEL = 4;
const ROUNDS = 5;

// ── the board, in its own process ─────────────────────────────────────
if (Deno.args[0] === "--serve") {
  // The default command timeout (2 s): no round trip may outlast it, even at 10,000 tasks.
  const source = createRedisSource({ url: Deno.args[1] });
  const board = createBoard(source);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    if (new URL(request.url).pathname === "/__memory") {
      const status = Deno.readTextFileSync("/proc/self/status");
      const peakKb = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]);
      return Response.json({ ...Deno.memoryUsage(), peak: peakKb * 1024 });
    }
    return board.fetch(request);
  });
  console.log(JSON.stringify({ port: server.addr.port }));
  await new Promise(() => {});
}

const tasks = Deno.args.length > 0 ? Number(Deno.args[0]) : 10_000;
const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

/** The middle of `values` (the upper one of an even count). */
const median = (values: number[]) => values.toSorted((a, b) => a - b)[values.length >> 1];

const redis = await startRedis();
const client = await connectClient(redis.url);
const loading = performance.now();
await fillRedis(client as never, { jobs: tasks * 8, tasks });
const keys = await client.dbSize();
console.log(
  `## ${tasks.toLocaleString("en")} tasks, ${(tasks * 8).toLocaleString("en")} jobs: ` +
    `${keys.toLocaleString("en")} keys (loaded in ${
      ((performance.now() - loading) / 1000).toFixed(0)
    } s)`,
);

const { child, base } = await spawnBoardProcess(new URL(import.meta.url), redis.url);
const memory = async () =>
  (await (await fetch(`${base}/__memory`)).json()) as Deno.MemoryUsage & { peak: number };
const get = async (path: string) => {
  const response = await fetch(`${base}/board${path}`);
  if (response.status !== 200) {
    throw new Error(`${path}: ${response.status} ${await response.text()}`);
  }
  return await response.text();
};

// Discovery finds the tasks on the first request; wait until the overview lists them all.
while (JSON.parse(await get("/api/overview")).tasks.length < tasks) {
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const idle = await memory();
console.log(`board after start and one overview: RSS ${mb(idle.rss)}, heap ${mb(idle.heapUsed)}`);

const times: number[] = [];
let scrape = "";
for (let round = 0; round < ROUNDS; round++) {
  const t0 = performance.now();
  const answers = await Promise.all([
    ...Array.from({ length: PARALLEL }, () => get("/metrics")),
    ...Array.from({ length: PARALLEL }, () => get("/api/overview")),
  ]);
  times.push(performance.now() - t0);
  scrape = answers[0];
  const { peak, rss, heapUsed } = await memory();
  console.log(
    `round ${round + 1}: peak RSS ${mb(peak)}, RSS after ${mb(rss)}, heap after ${mb(heapUsed)}, ${
      (times.at(-1)! / 1000).toFixed(1)
    } s`,
  );
}
const lines = scrape.split("\n").length;
const overview = await get("/api/overview");
console.log(
  `${PARALLEL} scrapes + ${PARALLEL} overviews in parallel: median ${
    (median(times) / 1000).toFixed(1)
  } s; peak RSS ${mb((await memory()).peak)} (from ${mb(idle.rss)}); one scrape ${
    (scrape.length / 1024).toFixed(0)
  } KB (${lines.toLocaleString("en")} lines), one overview ${
    (overview.length / 1024).toFixed(0)
  } KB`,
);

child.kill();
await child.status;
await client.close();
await redis.stop();
