/**
 * The read-API benchmark: 200,000 jobs over 20 tasks in a real Redis, every
 * request timed through the board and its Redis round trips counted by a
 * proxy. Prints medians as a table. `deno task bench`.
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { workflowKey } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis, jobCommands } from "../helpers/wire_writer.ts";
import { startRoundTripProxy } from "./rtt_proxy.ts";

const TASKS = 20;
const TOTAL_JOBS = 200_000;
const BIG_TASK_JOBS = 105_000;
const WORKFLOWS = 2_000;
const RUNS = 15;

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const redis = await startRedis();
const client = await connectClient(redis.url);
const started = performance.now();
await fillRedis(client as never, { jobs: TOTAL_JOBS - BIG_TASK_JOBS, tasks: TASKS - 1 });
const now = Date.now();
let pending: Promise<unknown>[] = [];
for (let i = 0; i < BIG_TASK_JOBS; i++) {
  const ts = now - (BIG_TASK_JOBS - i) * 10;
  const { commands } = jobCommands({
    task: "bulk",
    state: "completed",
    ts,
    version: 1,
    data: { i },
    result: { ok: true },
    finishedOn: ts + 5,
  });
  pending.push(...commands.map((args) => client.sendCommand(args)));
  if (pending.length > 20_000) {
    await Promise.all(pending);
    pending = [];
  }
}
for (let i = 0; i < WORKFLOWS; i++) {
  const graph = {
    nodes: [
      { taskName: "task-0", deps: [], jobId: `wf-${i}-a`, _v: 1 },
      { taskName: "task-1", deps: [0], jobId: `wf-${i}-b`, _v: 1 },
    ],
    terminal: [1],
    name: "chain(task-0 → task-1)",
  };
  pending.push(client.hSet(workflowKey(`wf-${i}`), {
    graph: JSON.stringify(graph),
    state: i % 10 === 0 ? "running" : "completed",
    createdAt: String(now - i * 1000),
  }));
}
await Promise.all(pending);
const keys = await client.dbSize();
console.log(
  `loaded ${TOTAL_JOBS.toLocaleString("en")} jobs over ${TASKS} tasks ` +
    `(${BIG_TASK_JOBS.toLocaleString("en")} completed in "bulk") and ${WORKFLOWS} workflows: ` +
    `${keys.toLocaleString("en")} keys in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const proxy = startRoundTripProxy(redis.port);

async function measure(
  fetchBoard: (request: Request) => Response | Promise<Response>,
  path: string,
): Promise<{ ms: number; roundTrips: number; status: number }> {
  const timings: number[] = [];
  const trips: number[] = [];
  let status = 0;
  const call = async () => {
    const response = await fetchBoard(new Request(`http://bench/board/api${path}`));
    status = response.status;
    await response.arrayBuffer();
  };
  await call();
  for (let run = 0; run < RUNS; run++) {
    proxy.reset();
    const t0 = performance.now();
    await call();
    timings.push(performance.now() - t0);
    trips.push(proxy.roundTrips);
  }
  return { ms: median(timings), roundTrips: median(trips), status };
}

const rows: Array<[string, string, number, number, number]> = [];
const allTasks = createRedisSource({ url: proxy.url });
const fullBoard = createBoard(allTasks);
const twoTasks = createRedisSource({ url: proxy.url, tasks: ["task-0", "task-1"] });
const smallBoard = createBoard(twoTasks);

for (
  const [label, board, path] of [
    ["overview, 2 tasks", smallBoard, "/overview"],
    ["overview, 20 tasks", fullBoard, "/overview"],
    ["jobs page, offset 0", fullBoard, "/tasks/bulk/jobs?state=completed&limit=50&offset=0"],
    [
      "jobs page, offset 100,000",
      fullBoard,
      "/tasks/bulk/jobs?state=completed&limit=50&offset=100000",
    ],
    ["failed page, offset 0", fullBoard, "/tasks/task-3/jobs?state=failed&limit=50"],
    ["job detail", fullBoard, "/jobs/placeholder"],
    ["workflows, first page", fullBoard, "/workflows?limit=50"],
    ["workflows, offset 1,900", fullBoard, "/workflows?limit=50&offset=1900"],
    ["dlq (page + groups)", fullBoard, "/dlq?limit=50"],
    ["throughput, 24 h all tasks", fullBoard, "/throughput"],
    ["throughput, 24 h one task", fullBoard, "/throughput?task=task-3"],
  ] as const
) {
  let target: string = path;
  if (path === "/jobs/placeholder") {
    const page = await (await fullBoard.fetch(
      new Request("http://bench/board/api/tasks/task-7/jobs?state=failed&limit=1"),
    )).json();
    target = `/jobs/${page[0].id}`;
  }
  const result = await measure(board.fetch, target);
  rows.push([label, target, result.status, result.ms, result.roundTrips]);
}

console.log("\n| request | path | status | median ms | median Redis round trips |");
console.log("|---|---|---|---|---|");
for (const [label, path, status, ms, trips] of rows) {
  console.log(`| ${label} | \`${path}\` | ${status} | ${ms.toFixed(2)} | ${trips} |`);
}
const ratio = rows[3][3] / rows[2][3];
console.log(`\njobs page offset 100,000 / offset 0: ${ratio.toFixed(2)}× (median time)`);
console.log(
  `overview round trips, 20 tasks vs 2: ${rows[1][4]} vs ${
    rows[0][4]
  } (constant means no per-task sequential awaits)`,
);

await fullBoard.close();
await allTasks.close();
await twoTasks.close();
proxy.close();
await client.close();
await redis.stop();
