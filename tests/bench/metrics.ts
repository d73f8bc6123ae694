/**
 * The observability benchmark (issue 15): 1,000,000 jobs over 20 tasks in a
 * real Redis, written in taskora's wire format. Prints, for `GET /metrics`
 * and `GET /tasks/{task}/latency`: Redis commands and round trips per
 * request and the median time: cold (the board's latency sampler empty:
 * every task's sample is read whole), warm (samples reused, as within
 * `LATENCY_MAX_AGE_MS`) and refreshed (samples older than that, brought up to
 * date: here nothing finished since, so only the finished sets' heads are read).
 *
 * `deno run --allow-all tests/bench/metrics.ts [jobs]` (default 1000000).
 * Commands are counted with `INFO commandstats` deltas (commands scripts run
 * included), round trips by a proxy.
 */

import { createBoard } from "../../mod.ts";
import { LATENCY_MAX_AGE_MS, LATENCY_SAMPLE_SIZE } from "../../src/samplers/latency.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";
import { startRoundTripProxy } from "./rtt_proxy.ts";

const TASKS = 20;
const RUNS = 9;
/** Refreshes wait out the samples' age each time: fewer of them. */
const REFRESH_RUNS = 3;
const jobs = Deno.args.length > 0 ? Number(Deno.args[0]) : 1_000_000;

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const redis = await startRedis();
const client = await connectClient(redis.url);
const started = performance.now();
await fillRedis(client as never, { jobs, tasks: TASKS });
console.log(
  `## ${jobs.toLocaleString("en")} jobs over ${TASKS} tasks: ${
    (await client.dbSize()).toLocaleString("en")
  } keys (loaded in ${((performance.now() - started) / 1000).toFixed(0)} s); ` +
    `latency sample ${LATENCY_SAMPLE_SIZE} jobs per task`,
);

const proxy = startRoundTripProxy(redis.port);
// The reconcile's budget is 1 command/s here so that background work does not blur the count.
const source = createRedisSource({ url: proxy.url, reconcileCommandsPerSecond: 1 });
await source.listTasks();

type Board = ReturnType<typeof createBoard>;

/**
 * Times `path` `runs` times. `mode`: `cold` gives each run a new board (an
 * empty sampler), `warm` reuses one, `refresh` waits out the samples' age
 * before each run.
 */
async function measure(
  label: string,
  path: string,
  mode: "cold" | "warm" | "refresh",
  runs = RUNS,
): Promise<void> {
  let board: Board = createBoard(source);
  const call = async () => {
    const response = await board.fetch(new Request(`http://bench/board${path}`));
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    return (await response.arrayBuffer()).byteLength;
  };
  let bytes = await call(); // warms discovery and, when not cold, the sampler
  const times: number[] = [];
  const trips: number[] = [];
  const calls = new Map<string, number>();
  for (let i = 0; i < runs; i++) {
    if (mode === "cold") board = createBoard(source);
    if (mode === "refresh") await new Promise((r) => setTimeout(r, LATENCY_MAX_AGE_MS + 50));
    proxy.reset();
    // Counted around the request alone: the source's background work while waiting is not its.
    const ran = await commandsOf(client, async () => {
      const t0 = performance.now();
      bytes = await call();
      times.push(performance.now() - t0);
    });
    trips.push(proxy.roundTrips);
    for (const [name, n] of ran) calls.set(name, (calls.get(name) ?? 0) + n);
  }
  const perRequest = totalCalls(calls) / runs;
  console.log(
    `${label}: median ${median(times).toFixed(1)} ms, ${median(trips)} round trip(s), ` +
      `${perRequest.toFixed(0)} commands per request (${
        (perRequest / TASKS).toFixed(1)
      } per task), ` +
      `${(bytes / 1024).toFixed(1)} KB — ${
        [...calls].map(([name, n]) => `${name} ${(n / runs).toFixed(0)}`).join(", ")
      }`,
  );
}

await measure("GET /metrics, cold (every task's sample read whole)", "/metrics", "cold");
await measure("GET /metrics, warm (samples reused)", "/metrics", "warm");
await measure(
  "GET /metrics, refreshed (samples brought up to date)",
  "/metrics",
  "refresh",
  REFRESH_RUNS,
);
await measure("GET /tasks/task-0/latency, cold", "/api/tasks/task-0/latency", "cold");
await measure("GET /tasks/task-0/latency, warm", "/api/tasks/task-0/latency", "warm");

await source.close();
proxy.close();
await client.close();
await redis.stop();
