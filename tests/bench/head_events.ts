/**
 * Memory of a board after many `HEAD {basePath}/api/events` (issue 11: each
 * HEAD used to keep an event client, the Redis reader and the stats poll
 * alive). The board runs over a real Redis in a child process (this file
 * with `--serve`); this process sends the HEADs, `--concurrency` at a time,
 * and reports the board's RSS (after a full GC) before, right after, and
 * after `--idle` seconds, with the Redis connections the board holds.
 *
 * Run: `deno run -A tests/bench/head_events.ts` (optionally `--heads 18000
 * --concurrency 50 --idle 20`). Figures, not assertions.
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { spawnBoardProcess } from "./board_process.ts";

const args = Deno.args;
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};

// ── the board, in its own process ─────────────────────────────────────
if (args[0] === "--serve") {
  const gc = (globalThis as { gc?: () => void }).gc!;
  const board = createBoard(createRedisSource({ url: args[1] }));
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    if (new URL(request.url).pathname !== "/__rss") return board.fetch(request);
    gc();
    gc();
    const { rss, heapUsed } = Deno.memoryUsage();
    return Response.json({ rss, heapUsed });
  });
  console.log(JSON.stringify({ port: server.addr.port }));
  await new Promise(() => {});
}

const HEADS = flag("heads", 18_000);
const CONCURRENCY = flag("concurrency", 50);
const IDLE_SECONDS = flag("idle", 20);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

const redis = await startRedis();
const probe = await connectClient(redis.url);
await probe.sendCommand(["HSET", "taskora:meta", "wireVersion", "6", "minCompat", "6"]);
for (let i = 0; i < 10; i++) await probe.sendCommand(["RPUSH", `taskora:{bench-${i}}:wait`, "x"]);

const { child, base } = await spawnBoardProcess(
  new URL(import.meta.url),
  redis.url,
  ["--v8-flags=--expose-gc"],
);

async function sample(label: string) {
  const { rss, heapUsed } = await (await fetch(`${base}/__rss`)).json();
  const clients = String(await probe.sendCommand(["INFO", "clients"]));
  const connected = Number(/connected_clients:(\d+)/.exec(clients)![1]) - 1; // minus the probe
  console.log(
    `${label.padEnd(28)} rss ${mb(rss).padStart(7)}  heap ${mb(heapUsed).padStart(7)}  ` +
      `board's Redis connections ${connected}`,
  );
}

// A first page load, so the board's command connection and caches exist before the baseline.
await (await fetch(`${base}/board/api/overview`)).body?.cancel();
await sample("before");
const started = performance.now();
let next = 0;
await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
  while (next < HEADS) {
    next++;
    const response = await fetch(`${base}/board/api/events`, { method: "HEAD" });
    await response.body?.cancel();
  }
}));
console.log(`${HEADS} HEADs in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await sample(`after ${HEADS} HEADs`);
await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
await sample(`after ${IDLE_SECONDS} s idle`);

child.kill("SIGTERM");
await child.status;
await probe.close();
await redis.stop();
