/**
 * The overview on a real 3-master Redis Cluster (with a replica each):
 * 20,000 jobs over 20 tasks spread over the masters by their `{task}` slot,
 * the overview timed through the board, and the commands it costs counted
 * from every master's `INFO stats`. A single Redis with the same
 * data is measured the same way beside it. `deno task bench`.
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { clusterSender, startCluster } from "../helpers/redis_cluster.ts";
import { redisCommand } from "../helpers/resp_command.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { type CommandSender, fillRedis } from "../helpers/wire_writer.ts";

const TASKS = 20;
const JOBS = 20_000;
const RUNS = 25;

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Commands processed by the masters so far (`total_commands_processed`,
 * which counts the commands scripts run as well as those clients send).
 */
async function commandsRun(ports: number[]): Promise<number> {
  let total = 0;
  for (const port of ports) {
    const info = await redisCommand(port, "INFO", "stats");
    total += Number(/total_commands_processed:(\d+)/.exec(info)![1]);
  }
  return total;
}

async function measure(
  label: string,
  source: ReturnType<typeof createRedisSource>,
  ports: () => Promise<number[]>,
): Promise<string> {
  const board = createBoard(source);
  const call = async () => {
    const response = await board.fetch(new Request("http://bench/board/api/overview"));
    if (response.status !== 200) throw new Error(`overview: ${response.status}`);
    await response.arrayBuffer();
  };
  await call();
  const timings: number[] = [];
  const counts: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const nodes = await ports();
    const before = await commandsRun(nodes);
    const t0 = performance.now();
    await call();
    timings.push(performance.now() - t0);
    // Less the one INFO per master that read `before`.
    counts.push(await commandsRun(nodes) - before - nodes.length);
  }
  await board.close();
  await source.close();
  return `| ${label} | ${median(timings).toFixed(2)} | ${median(counts)} |`;
}

const rows: string[] = [];
const discoveryIntervalMs = 3_600_000; // no background SCAN between the counts

const cluster = await startCluster();
await fillRedis(clusterSender(await cluster.client()) as CommandSender, {
  jobs: JOBS,
  tasks: TASKS,
});
rows.push(
  await measure(
    `3-master cluster, ${TASKS} tasks`,
    createRedisSource({ cluster: { rootNodes: cluster.rootNodes }, discoveryIntervalMs }),
    () => cluster.masterPorts(),
  ),
);
await cluster.stop();

const redis = await startRedis();
const client = await connectClient(redis.url);
await fillRedis(client as unknown as CommandSender, { jobs: JOBS, tasks: TASKS });
rows.push(
  await measure(
    `one Redis, ${TASKS} tasks`,
    createRedisSource({ url: redis.url, discoveryIntervalMs }),
    () => Promise.resolve([redis.port]),
  ),
);
await client.close();
await redis.stop();

console.log(`\noverview, ${JOBS.toLocaleString("en")} jobs, median of ${RUNS}`);
console.log("| Redis | median ms | commands per request (with those scripts run) |");
console.log("|---|---|---|");
for (const row of rows) console.log(row);
