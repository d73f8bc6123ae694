/**
 * The live-event benchmark: a producer XADDs 2,000 events/s (as taskora
 * writes them, over 10 tasks) for 10 s while N browsers hold the event
 * stream open, N = 1 and N = 1,000. Reports delivery latency from XADD to
 * client (p50/p99, over a sample of clients), how much of the stream every
 * client got, the board's RSS and the Redis commands/s the board sent
 * (INFO commandstats deltas minus the producer's XADDs).
 *
 * The board runs in a child process (this file with `--serve`), so its RSS
 * and CPU are its own; the clients run in a Worker (their own thread) and
 * the producer here, so neither slows the other's clock.
 *
 * Run: `deno run -A tests/bench/sse.ts` (optionally `--seconds 10 --rate 2000`).
 */

import process from "node:process";
import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { spawnBoardProcess } from "./board_process.ts";

const args = Deno.args;
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const SECONDS = flag("seconds", 10);
const RATE = flag("rate", 2000);
const TASKS = 10;
/** Clients whose frames are parsed for latency; the others only count bytes. */
const SAMPLED = 50;

const now = () => performance.timeOrigin + performance.now();

// ── the board, in its own process ─────────────────────────────────────
if (args[0] === "--serve") {
  const source = createRedisSource({ url: args[1] });
  const board = createBoard(source);
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (request) => {
    if (new URL(request.url).pathname === "/__rss") {
      const { user, system } = process.cpuUsage();
      return Response.json({ rss: Deno.memoryUsage().rss, cpuMs: (user + system) / 1000 });
    }
    return board.fetch(request);
  });
  console.log(JSON.stringify({ port: server.addr.port }));
  await new Promise(() => {});
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function commandCalls(client: Awaited<ReturnType<typeof connectClient>>) {
  const info = String(await client.sendCommand(["INFO", "commandstats"]));
  const calls = new Map<string, number>();
  for (const match of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    calls.set(match[1], Number(match[2]));
  }
  return calls;
}

interface ClientStats {
  bytes: number;
  jobFrames: number;
  latencies: number[];
  ended: boolean;
  ready: Promise<void>;
}

/**
 * One browser as cheap as a reader can be: a raw HTTP/1.0 request on its own
 * TCP connection (so the stream is the body as sent, without chunk framing)
 * read into one buffer. Only a sampled client decodes frames; the others
 * count bytes. A `fetch` stream per client cost the client thread more than
 * the board spent serving them, and the board's latency was the clients'.
 */
function openClient(url: string, sampled: boolean, signal: AbortSignal): ClientStats {
  let markReady = () => {};
  const stats: ClientStats = {
    bytes: 0,
    jobFrames: 0,
    latencies: [],
    ended: false,
    ready: new Promise((resolve) => markReady = resolve),
  };
  (async () => {
    const { hostname, port, pathname } = new URL(url);
    const conn = await Deno.connect({ hostname, port: Number(port) });
    signal.addEventListener("abort", () => conn.close(), { once: true });
    try {
      await conn.write(new TextEncoder().encode(
        `GET ${pathname} HTTP/1.0\r\nHost: ${hostname}\r\nAccept: text/event-stream\r\n\r\n`,
      ));
      const chunk = new Uint8Array(256 * 1024);
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const n = await conn.read(chunk);
        if (n === null) break;
        const at = now();
        stats.bytes += n;
        markReady();
        if (!sampled) continue;
        buffer += decoder.decode(chunk.subarray(0, n), { stream: true });
        let end: number;
        while ((end = buffer.indexOf("\n\n")) !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const start = frame.indexOf("event: job:");
          if (start === -1) continue;
          stats.jobFrames++;
          const sent = /"sentAt":"([\d.]+)"/.exec(frame);
          if (sent) stats.latencies.push(at - Number(sent[1]));
        }
      }
    } catch {
      // closed at the end of the run
    }
    stats.ended = !signal.aborted;
    markReady();
  })();
  return stats;
}

/** The client side, in a Worker: `open` → `ready`, `report` → the numbers, `close`. */
if ((globalThis as { name?: string }).name === "sse-clients") {
  const scope = globalThis as unknown as {
    onmessage: (event: MessageEvent) => void;
    postMessage: (message: unknown) => void;
  };
  let abort = new AbortController();
  let clients: ClientStats[] = [];
  scope.onmessage = async ({ data }) => {
    if (data.type === "open") {
      abort = new AbortController();
      clients = Array.from(
        { length: data.clients },
        (_, i) => openClient(data.url, i < SAMPLED, abort.signal),
      );
      await Promise.all(clients.map((client) => client.ready));
      scope.postMessage({ type: "ready" });
    } else if (data.type === "report") {
      scope.postMessage({
        type: "report",
        clients: clients.map(({ bytes, jobFrames, latencies, ended }, i) => ({
          bytes,
          jobFrames,
          latencies: i < SAMPLED ? latencies : [],
          ended,
        })),
      });
    } else if (data.type === "close") {
      abort.abort();
      await new Promise((resolve) => setTimeout(resolve, 500));
      scope.postMessage({ type: "closed" });
    }
  };
}

type Report = Array<Omit<ClientStats, "ready">>;

function ask<T>(worker: Worker, message: { type: string; [key: string]: unknown }, answer: string) {
  return new Promise<T>((resolve) => {
    const listener = ({ data }: MessageEvent) => {
      if (data.type !== answer) return;
      worker.removeEventListener("message", listener);
      resolve(data as T);
    };
    worker.addEventListener("message", listener);
    worker.postMessage(message);
  });
}

if ((globalThis as { name?: string }).name !== "sse-clients") await main();

async function main(): Promise<void> {
  const redis = await startRedis();
  const producer = await connectClient(redis.url);
  const probe = await connectClient(redis.url);
  await producer.sendCommand(["HSET", "taskora:meta", "wireVersion", "6", "minCompat", "6"]);
  const tasks = Array.from({ length: TASKS }, (_, i) => `bench-${i}`);
  for (const task of tasks) {
    await producer.sendCommand(["RPUSH", `taskora:{${task}}:wait`, "seed"]);
  }

  const { child, base } = await spawnBoardProcess(new URL(import.meta.url), redis.url);
  const usage = async () =>
    (await (await fetch(`${base}/__rss`)).json()) as { rss: number; cpuMs: number };
  const rss = async () => (await usage()).rss;
  const worker = new Worker(import.meta.url, { type: "module", name: "sse-clients" });

  interface Row {
    clients: number;
    sent: number;
    p50: number;
    p99: number;
    max: number;
    delivered: number;
    minBytesShare: number;
    dropped: number;
    rssIdle: number;
    rssPeak: number;
    boardCommandsPerSec: number;
    boardCpu: number;
    clientCpu: number;
    breakdown: string;
  }

  async function scenario(clients: number): Promise<Row> {
    const rssIdle = await rss();
    await ask(worker, { type: "open", clients, url: `${base}/board/api/events` }, "ready");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = await commandCalls(probe);
    const cpuBefore = (await usage()).cpuMs;
    const hereBefore = process.cpuUsage();
    const started = now();

    let rssPeak = await rss();
    const rssTimer = setInterval(async () => rssPeak = Math.max(rssPeak, await rss()), 500);
    let sent = 0;
    const kinds = ["active", "progress", "completed"];
    const tickMs = 10;
    const perTick = RATE * tickMs / 1000;
    const ticks = SECONDS * 1000 / tickMs;
    for (let t = 0; t < ticks; t++) {
      const due = started + t * tickMs;
      const wait = due - now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const writes = [];
      for (let i = 0; i < perTick; i++) {
        const n = sent++;
        const kind = kinds[n % 3];
        const fields = ["event", kind, "jobId", `job-${n}`, "sentAt", String(now())];
        if (kind === "completed") fields.push("result", '{"ok":true}', "duration", "12");
        if (kind === "progress") fields.push("value", "50");
        writes.push(producer.sendCommand([
          "XADD",
          `taskora:{${tasks[n % TASKS]}}:events`,
          "MAXLEN",
          "~",
          "10000",
          "*",
          ...fields,
        ]));
      }
      await Promise.all(writes);
    }
    const elapsed = (now() - started) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 2000)); // drain
    clearInterval(rssTimer);
    const after = await commandCalls(probe);
    const windowS = (now() - started) / 1000;
    const boardCpu = ((await usage()).cpuMs - cpuBefore) / (windowS * 1000);
    const here = process.cpuUsage(hereBefore);
    const clientCpu = (here.user + here.system) / 1000 / (windowS * 1000);
    const { clients: all } = await ask<{ clients: Report }>(worker, { type: "report" }, "report");

    const deltas: [string, number][] = [];
    for (const [name, calls] of after) {
      let delta = calls - (before.get(name) ?? 0);
      if (name === "xadd") delta -= sent;
      if (name === "info") delta -= 1; // the probe's own second INFO
      if (delta > 0) deltas.push([name, delta]);
    }
    const boardCalls = deltas.reduce((sum, [, delta]) => sum + delta, 0);
    const sampled = all.slice(0, SAMPLED);
    const latencies = sampled.flatMap((client) => client.latencies).sort((a, b) => a - b);
    const delivered = sampled.reduce((sum, client) => sum + client.jobFrames, 0) /
      (sampled.length * sent);
    const reference = Math.max(...all.map((client) => client.bytes));
    const minBytesShare = Math.min(...all.map((client) => client.bytes)) / reference;
    const dropped = all.filter((client) => client.ended).length;
    await ask(worker, { type: "close" }, "closed");
    console.log(
      `${clients} clients: ${sent} events in ${elapsed.toFixed(1)} s; board commands: ${
        deltas.map(([name, delta]) => `${name} ${delta}`).join(", ")
      }`,
    );
    return {
      clients,
      sent,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: latencies.at(-1) ?? NaN,
      delivered,
      minBytesShare,
      dropped,
      rssIdle,
      rssPeak,
      boardCommandsPerSec: boardCalls / windowS,
      boardCpu,
      clientCpu,
      breakdown: deltas.map(([name, delta]) => `${name} ${(delta / windowS).toFixed(1)}`).join(
        ", ",
      ),
    };
  }

  const rows = [await scenario(1), await scenario(1000)];

  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `\n${RATE} events/s for ${SECONDS} s over ${TASKS} tasks; latency over ${SAMPLED} sampled clients\n`,
  );
  console.log(
    "| SSE clients | events | latency p50 | p99 | max | delivered (sampled) | least-served client (bytes) | dropped | board RSS idle → peak | board CPU | clients+producer CPU | board Redis cmds/s |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) {
    console.log(
      `| ${row.clients} | ${row.sent} | ${row.p50.toFixed(1)} ms | ${row.p99.toFixed(1)} ms | ${
        row.max.toFixed(1)
      } ms | ${(row.delivered * 100).toFixed(1)}% | ${
        (row.minBytesShare * 100).toFixed(1)
      }% | ${row.dropped} | ${mb(row.rssIdle)} → ${mb(row.rssPeak)} | ${
        (row.boardCpu * 100).toFixed(0)
      }% | ${(row.clientCpu * 100).toFixed(0)}% | ${
        row.boardCommandsPerSec.toFixed(1)
      } (${row.breakdown}) |`,
    );
  }

  worker.terminate();
  child.kill("SIGTERM");
  await child.status;
  await producer.close();
  await probe.close();
  await redis.stop();
}
