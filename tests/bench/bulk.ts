/**
 * The bulk-action benchmark (issue 14): one task of 1,000,000 jobs in a
 * real Redis, 100,000 of them failed (written by the test wire writer, as
 * taskora leaves them) and 900,000 completed (written by a server-side
 * filler in the same hash format). A board bulk-retries over HTTP
 * (`POST /bulk`, then `GET /operations/{id}` until it ends) first the
 * 2,000 failed jobs matching an error filter, then the rest of the state.
 * Prints for each the dry run, the total time and, from SLOWLOG with every command logged
 * (`slowlog-log-slower-than 0`, a log long enough for all of them), the longest single
 * Redis call and the step scripts' times. Part of `deno task bench`.
 */

import { createBoard } from "../../mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeFailedJobs } from "../helpers/wire_writer.ts";

const TASK = "bulk";
const FAILED = 100_000;
const COMPLETED = 900_000;
const FILL_PER_CALL = 20_000;

/** Writes `count` completed jobs `c<from>`… server-side, as the wire writer's hash would hold them. */
const FILL_COMPLETED = `
local prefix, from, count, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = from, from + count - 1 do
  local id = 'c' .. i
  local ts = now - 3600000 + i
  redis.call('HSET', prefix .. id, 'ts', ts, '_v', 1, 'attempt', 1, 'maxAttempts', 1,
    'state', 'completed', 'priority', 0, 'data', '{"i":' .. i .. '}', 'processedOn', ts + 1,
    'finishedOn', ts + 5, 'result', '"ok"')
  redis.call('ZADD', KEYS[1], ts + 5, id)
end
return count
`;

const redis = await startRedis();
const client = await connectClient(redis.url);
const send = (...args: (string | number)[]): Promise<unknown> =>
  client.sendCommand(args.map(String));
const keys = taskKeys(TASK);

const fillStarted = performance.now();
const now = Date.now();
for (let from = 0; from < COMPLETED; from += FILL_PER_CALL) {
  await send("EVAL", FILL_COMPLETED, 1, keys.completed, keys.jobPrefix, from, FILL_PER_CALL, now);
}
await writeFailedJobs(client as never, TASK, FAILED, now);
const fillMs = performance.now() - fillStarted;

// Every command logged (those a script runs too, about 700 per step), none dropped: the
// longest entry is the longest Redis was blocked by one call.
type SlowEntry = [number, number, number, string[]];
await send("CONFIG", "SET", "slowlog-log-slower-than", "0");
await send("CONFIG", "SET", "slowlog-max-len", "1000000");

// The task named: the board's first discovery SCAN of a 1M-key keyspace is not what is measured.
const source = createRedisSource({ url: redis.url, tasks: [TASK] });
const board = createBoard(source);
const api = async (method: string, path: string, body?: unknown) => {
  const response = await board.fetch(
    new Request(`http://bench/board/api${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  return await response.json();
};

/** What one bulk retry took: its dry run, its run, and the Redis calls SLOWLOG logged meanwhile. */
async function measureRetry(selector: Record<string, unknown>) {
  await send("SLOWLOG", "RESET");
  const dryStarted = performance.now();
  const preview = await api("POST", "/bulk", { action: "retry", selector, dryRun: true });
  const dryMs = performance.now() - dryStarted;
  const started = performance.now();
  const { operation } = await api("POST", "/bulk", { action: "retry", selector });
  let report: BulkOperation;
  for (;;) {
    report = await api("GET", `/operations/${operation.id}`);
    if (report.status !== "running") break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const totalMs = performance.now() - started;
  const slowlog = (await send("SLOWLOG", "GET", "-1") as SlowEntry[])
    .filter(([, , , args]) => !/^(SLOWLOG|CONFIG)$/i.test(args[0]));
  const longest = slowlog.reduce((a, b) => (b[2] > a[2] ? b : a));
  const scripts = slowlog.filter(([, , , args]) => args[0]?.toUpperCase() === "EVALSHA");
  const scriptMicros = scripts.map(([, , us]) => us).sort((a, b) => a - b);
  const rows: [string, string][] = [
    ["dry-run count", `${preview.count.toLocaleString("en")} (${dryMs.toFixed(1)} ms)`],
    [
      "operation",
      `${report.status}: ${report.done} done, ${report.skipped} skipped` +
      (report.scanned === null ? "" : `, ${report.scanned.toLocaleString("en")} scanned`),
    ],
    ["total time", `${totalMs.toFixed(0)} ms`],
    ["throughput", `${Math.round(report.done / (totalMs / 1000)).toLocaleString("en")} jobs/s`],
    ["Redis calls logged (inside scripts too)", slowlog.length.toLocaleString("en")],
    ["scripts logged (dry run + steps + slices)", scripts.length.toLocaleString("en")],
    [
      "script median / p99 (SLOWLOG)",
      `${(scriptMicros[scriptMicros.length >> 1] / 1000).toFixed(2)} ms / ${
        (scriptMicros[Math.floor(scriptMicros.length * 0.99)] / 1000).toFixed(2)
      } ms`,
    ],
    ["longest script (SLOWLOG)", `${(scriptMicros[scriptMicros.length - 1] / 1000).toFixed(2)} ms`],
    ["longest Redis call (SLOWLOG)", `${(longest[2] / 1000).toFixed(2)} ms (${longest[3][0]})`],
  ];
  return { report, rows };
}

function print(title: string, rows: [string, string][]): void {
  const width = Math.max(...rows.map(([label]) => label.length));
  console.log(`\n${title}\n`);
  console.log(`| ${"measure".padEnd(width)} | value`);
  console.log(`|${"-".repeat(width + 2)}|${"-".repeat(24)}`);
  for (const [label, value] of rows) console.log(`| ${label.padEnd(width)} | ${value}`);
}

// First the jobs matching an error filter (2,000: "after 1200 ms" to "after 1299 ms"), then the rest.
const MATCHING = 2_000;
const filtered = await measureRetry({
  task: TASK,
  state: "failed",
  filter: { field: "error", contains: "after 12" },
});
const whole = await measureRetry({ task: TASK, state: "failed" });
const [waiting, prioritized, failed, completed] = await Promise.all([
  send("LLEN", keys.wait),
  send("ZCARD", keys.prioritized),
  send("ZCARD", keys.failed),
  send("ZCARD", keys.completed),
]) as number[];

await board.close();
await source.close();
await client.close();
await redis.stop();

console.log(
  `\n${(FAILED + COMPLETED).toLocaleString("en")} jobs written: ${
    FAILED.toLocaleString("en")
  } failed, ${completed.toLocaleString("en")} completed (${(fillMs / 1000).toFixed(1)} s)`,
);
print(
  `bulk retry of the failed jobs matching an error filter — ${MATCHING.toLocaleString("en")} of ${
    FAILED.toLocaleString("en")
  }`,
  filtered.rows,
);
print(
  `bulk retry of the rest of the failed state — ${(FAILED - MATCHING).toLocaleString("en")}`,
  whole.rows,
);
console.log(
  `\nnow waiting (list + prioritized): ${waiting} + ${prioritized}; left failed: ${failed}`,
);

if (
  filtered.report.done !== MATCHING || whole.report.done !== FAILED - MATCHING || failed !== 0 ||
  waiting + prioritized !== FAILED
) {
  console.error("the bulk retries did not requeue every failed job exactly once");
  Deno.exit(1);
}
