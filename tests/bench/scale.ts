/**
 * The scale benchmark (issue 12): 200,000 and 1,000,000 jobs over 20 tasks
 * (one in eight delayed, one in eight retrying) in a real Redis. Prints, per
 * size: the overview's median time, Redis commands and round trips per
 * request; what the source costs Redis per second while idle (no request
 * for `idleAfterMs`, no SSE client) and with 100 SSE clients connected, by
 * kind of work; and discovery's SCANs per minute while watched.
 *
 * `deno run --allow-all tests/bench/scale.ts [jobs ...]` (default 200000 1000000).
 * Commands are counted with `INFO commandstats` deltas (commands scripts run
 * included).
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import {
  commandsOf as delta,
  SNAPSHOT_INNER_COMMANDS,
  totalCalls as sum,
} from "../helpers/command_stats.ts";
import { fillRedis } from "../helpers/wire_writer.ts";
import { startRoundTripProxy } from "./rtt_proxy.ts";
import { openSseClients } from "./sse_clients.ts";

const TASKS = 20;
const RUNS = 31;
const WINDOW_MS = 30_000;
/** Shorter than the default minute, so the bench need not wait one. */
const IDLE_AFTER_MS = 3000;
const SSE_CLIENTS = 100;

type Client = Awaited<ReturnType<typeof connectClient>>;

function median(values: number[]): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const perSecond = (n: number) => (n / (WINDOW_MS / 1000)).toFixed(1);

async function run(jobs: number): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const started = performance.now();
  await fillRedis(client as never, { jobs, tasks: TASKS });
  const keys = await client.dbSize();
  console.log(
    `\n## ${jobs.toLocaleString("en")} jobs over ${TASKS} tasks: ${
      keys.toLocaleString("en")
    } keys ` +
      `(loaded in ${((performance.now() - started) / 1000).toFixed(0)} s)`,
  );

  // The overview: timed on a direct connection; its commands counted by INFO, its round trips
  // by a proxy on a second board (the proxy adds its own hop, so it never times anything).
  // The reconcile's budget is 1 command/s here so that background work does not blur the count.
  const proxy = startRoundTripProxy(redis.port);
  const boards = [redis.url, proxy.url].map((url) => {
    const source = createRedisSource({ url, reconcileCommandsPerSecond: 1 });
    return { source, board: createBoard(source) };
  });
  const overview = async (at: number) => {
    const response = await boards[at].board.fetch(new Request("http://bench/board/api/overview"));
    await response.arrayBuffer();
  };
  await Promise.all([overview(0), overview(1)]);
  await sleep(1000); // the first discovery pass after the first request
  for (let i = 0; i < RUNS; i++) await overview(0); // warm-up
  const timings: number[] = [];
  const calls = await delta(client, async () => {
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await overview(0);
      timings.push(performance.now() - t0);
    }
  });
  const trips: number[] = [];
  for (let i = 0; i < 5; i++) {
    proxy.reset();
    await overview(1);
    trips.push(proxy.roundTrips);
  }
  const perRequest = sum(calls) / RUNS;
  // What the snapshot script runs inside: the rest went over the wire.
  const wire = sum(calls) - sum(calls, SNAPSHOT_INNER_COMMANDS);
  console.log(
    `overview: median ${median(timings).toFixed(2)} ms, ${median(trips)} round trip(s), ` +
      `${(wire / RUNS).toFixed(1)} wire commands per request (${
        (wire / RUNS / TASKS).toFixed(1)
      } per task), ${perRequest.toFixed(1)} with those scripts run — ${
        [...calls].map(([n, c]) => `${n} ${(c / RUNS).toFixed(1)}`).join(", ")
      }`,
  );
  for (const { board, source } of boards) {
    await board.close();
    await source.close();
  }
  proxy.close();

  // Background cost, default budgets.
  const source = createRedisSource({ url: redis.url, idleAfterMs: IDLE_AFTER_MS });
  const board = createBoard(source);
  await (await board.fetch(new Request("http://bench/board/api/overview"))).arrayBuffer();
  await sleep(IDLE_AFTER_MS + 500);
  const idle = await delta(client, () => sleep(WINDOW_MS));
  console.log(
    `idle, no SSE client: ${perSecond(sum(idle))} commands/s over ${WINDOW_MS / 1000} s` +
      (idle.size ? ` (${[...idle].map(([n, c]) => `${n} ${c}`).join(", ")})` : ""),
  );

  const closeStreams = await openSseClients(board, SSE_CLIENTS);
  await sleep(3000);
  const watched = await delta(client, () => sleep(WINDOW_MS));
  const reconcile = sum(watched, ["zscan", "hget"]);
  const scans = watched.get("scan") ?? 0;
  console.log(
    `${SSE_CLIENTS} SSE clients: ${perSecond(sum(watched))} commands/s: reconcile of the split ` +
      `${
        perSecond(reconcile)
      }/s (budget: 80/s for a first count, 40/s for rechecks), stats frames ${
        perSecond(sum(watched, ["evalsha", "llen", "zcard"]))
      }/s, discovery ${perSecond(scans)} SCAN/s (${
        (scans * 60_000 / WINDOW_MS).toFixed(0)
      }/min), ` +
      `event reader ${perSecond(sum(watched, ["xread"]))}/s; without the reconcile ${
        perSecond(sum(watched) - reconcile)
      }/s`,
  );
  await closeStreams();
  await board.close();
  await source.close();
  await client.close();
  await redis.stop();
}

const sizes = Deno.args.length > 0 ? Deno.args.map(Number) : [200_000, 1_000_000];
for (const jobs of sizes) {
  const t0 = performance.now();
  await run(jobs);
  console.log(`(run took ${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}
