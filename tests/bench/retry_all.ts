/**
 * The retry-all benchmark: 100,000 failed jobs of one task in a real Redis,
 * sent back to waiting by `retryAllFailed(task)`. Prints the total time and
 * what Redis's SLOWLOG saw of the batch scripts (logging every command over
 * 1 ms): how long the longest one blocked Redis and how many took over
 * 1 ms and 5 ms. Part of `deno task bench`.
 */

import { createRedisSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeFailedJobs } from "../helpers/wire_writer.ts";

const JOBS = 100_000;
const TASK = "bulk";

const redis = await startRedis();
const client = await connectClient(redis.url);
const send = (...args: (string | number)[]): Promise<unknown> =>
  client.sendCommand(args.map(String));

const fillStarted = performance.now();
await writeFailedJobs(client as never, TASK, JOBS);
const fillMs = performance.now() - fillStarted;

await send("CONFIG", "SET", "slowlog-log-slower-than", "1000");
await send("CONFIG", "SET", "slowlog-max-len", "10000");
await send("SLOWLOG", "RESET");
await send("CONFIG", "RESETSTAT");

const source = createRedisSource({ url: redis.url, tasks: [TASK] });
const started = performance.now();
const { retried } = await source.retryAllFailed({ task: TASK });
const totalMs = performance.now() - started;

const slowlog = await send("SLOWLOG", "GET", "10000") as [number, number, number, string[]][];
const scripts = slowlog.filter(([, , , args]) => args[0]?.toUpperCase() === "EVALSHA");
const micros = scripts.map(([, , duration]) => duration);
const longestMs = micros.length > 0 ? Math.max(...micros) / 1000 : 0;
const over = (ms: number) => micros.filter((us) => us > ms * 1000).length;
const stats = /cmdstat_evalsha:calls=(\d+),usec=(\d+),usec_per_call=([\d.]+),.*failed_calls=(\d+)/
  .exec(await send("INFO", "commandstats") as string);
const calls = stats ? Number(stats[1]) - Number(stats[4]) : NaN;
const keys = taskKeys(TASK);
const [waiting, prioritized, failed] = await Promise.all([
  send("LLEN", keys.wait),
  send("ZCARD", keys.prioritized),
  send("ZCARD", keys.failed),
]) as number[];

await source.close();
await client.close();
await redis.stop();

const rows: [string, string][] = [
  ["failed jobs written", `${JOBS.toLocaleString("en")} (${(fillMs / 1000).toFixed(1)} s)`],
  ["retried", retried.toLocaleString("en")],
  ["now waiting (list + prioritized)", `${waiting} + ${prioritized}`],
  ["left failed", String(failed)],
  ["total time", `${totalMs.toFixed(0)} ms`],
  ["throughput", `${Math.round(retried / (totalMs / 1000)).toLocaleString("en")} jobs/s`],
  ["batch scripts run", String(calls)],
  ["mean script time (Redis)", stats ? `${(Number(stats[3]) / 1000).toFixed(2)} ms` : "?"],
  ["longest script (SLOWLOG)", `${longestMs.toFixed(2)} ms`],
  ["scripts over 1 ms", String(over(1))],
  ["scripts over 5 ms", String(over(5))],
];
const width = Math.max(...rows.map(([label]) => label.length));
console.log(`\nretryAllFailed("${TASK}") — ${JOBS.toLocaleString("en")} failed jobs\n`);
console.log(`| ${"measure".padEnd(width)} | value`);
console.log(`|${"-".repeat(width + 2)}|${"-".repeat(24)}`);
for (const [label, value] of rows) console.log(`| ${label.padEnd(width)} | ${value}`);

if (retried !== JOBS || failed !== 0 || waiting + prioritized !== JOBS) {
  console.error("retry-all did not requeue every job exactly once");
  Deno.exit(1);
}
