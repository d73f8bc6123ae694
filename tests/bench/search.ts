/**
 * The job search benchmark (issue 14): one task with 1,000,000 completed
 * jobs in taskora's wire format (seeded by a Lua script, 10,000 jobs a
 * call), searched slice by slice as the search route does. Prints, per
 * filter, the median, 99th percentile and longest time of one slice call
 * as the board sees it (round trip included) and in Redis's own SLOWLOG
 * (threshold 100 µs: the search scripts, and few of the commands they
 * run), and the whole scan's time.
 *
 * `deno run --allow-all tests/bench/search.ts [jobs]` (default 1000000;
 * about a minute to seed and two to search on two shared cores). Not part
 * of `deno task bench`: it takes longer than the others together.
 */

import { matchesOf } from "../../src/search/job_match.ts";
import type { JobFilter } from "../../src/contract/job_filter.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { SearchPosition } from "../../src/source/types.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const JOBS = Number(Deno.args[0] ?? 1_000_000);
const TASK = "search-bench";
const BASE = `taskora:{${TASK}}`;
const SEED_CALL = 10_000;
const NOW = Date.now();
/** Job i finished at NOW - i * 10 ms: 1M jobs span about three hours. */
const finishedAt = (i: number) => NOW - i * 10;

/** Writes jobs `start..start+n-1` as taskora does: the hash, then the member of the completed set. */
const SEED = `
local set, prefix = KEYS[1], ARGV[1]
local start, n, now = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
for i = start, start + n - 1 do
  local id = string.format('job-%07d', i)
  local finished = now - i * 10
  redis.call('HSET', prefix .. id,
    'state', 'completed', '_v', '1', 'attempt', '1', 'maxAttempts', '3', 'priority', '0',
    'ts', tostring(finished - 250), 'processedOn', tostring(finished - 200),
    'finishedOn', tostring(finished),
    'data', '{"user":{"id":' .. (i % 10000) .. ',"email":"user' .. i .. '@example.com"},' ..
      '"items":[{"sku":"A-' .. (i % 97) .. '","qty":' .. (i % 5 + 1) .. '}]}',
    'result', '{"sent":true,"messageId":"m-' .. i .. '"}')
  redis.call('ZADD', set, finished, id)
end
return n
`;

/** The value below which a share `q` of the values lie (0.5: the median). */
const quantile = (values: number[], q: number) =>
  values.toSorted((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))];
const ms = (n: number) => `${n.toFixed(2)} ms`;

const redis = await startRedis();
const client = await connectClient(redis.url);
try {
  const seeded = performance.now();
  for (let start = 0; start < JOBS; start += SEED_CALL) {
    await client.sendCommand([
      "EVAL",
      SEED,
      "1",
      `${BASE}:completed`,
      `${BASE}:`,
      String(start),
      String(Math.min(SEED_CALL, JOBS - start)),
      String(NOW),
    ]);
  }
  const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  const info = await client.sendCommand(["INFO", "memory"]) as string;
  console.log(
    `# ${JOBS.toLocaleString("en")} completed jobs seeded in ${
      ((performance.now() - seeded) / 1000).toFixed(0)
    } s (${/used_memory_human:(\S+)/.exec(info)?.[1]}); load average ${load()}`,
  );

  const source = createRedisSource({ url: redis.url });
  const present = createPresenter({ redact: ["email"], formatters: {} });
  const none: JobFilter = { from: null, to: null, idPrefix: null, payload: null, masked: [] };
  const cases: { name: string; filter: JobFilter; page: number; runs?: number }[] = [
    {
      name: "data contains a text no job holds (the whole set scanned)",
      filter: { ...none, payload: { field: "data", contains: "no-such-text" } },
      page: 50,
    },
    {
      name: "data user.id = 4242 (100 matches, the whole set scanned)",
      filter: { ...none, payload: { field: "data", path: ["user", "id"], value: "4242" } },
      page: 1000,
    },
    {
      name: 'result contains "m-99999" (prefilter hits many, exact match decides)',
      filter: { ...none, payload: { field: "result", contains: '"m-99999"' } },
      page: 50,
    },
    {
      name: "data contains sku (every job, first page: one whole slice of 250 read)",
      filter: { ...none, payload: { field: "data", contains: "sku" } },
      page: 50,
      runs: 21,
    },
    {
      name: "id prefix job-09 (10,000 matches, first page)",
      filter: { ...none, idPrefix: "job-09" },
      page: 50,
    },
    {
      name: "a one-minute time range two hours back (indexed, first page)",
      filter: { ...none, from: finishedAt(720_000) - 60_000, to: finishedAt(720_000) },
      page: 50,
      runs: 21,
    },
  ];
  // Redis 7 logs the commands a script runs too; they take microseconds, so a 100 µs
  // threshold keeps every script call worth knowing about and few of the rest.
  await client.sendCommand(["CONFIG", "SET", "slowlog-log-slower-than", "100"]);
  await client.sendCommand(["CONFIG", "SET", "slowlog-max-len", "100000"]);
  // The first call discovers the task and loads the script: not a slice's cost.
  await source.searchJobs(TASK, "completed", none, null, 1);
  for (const { name, filter, page, runs = 1 } of cases) {
    await client.sendCommand(["SLOWLOG", "RESET"]);
    const times: number[] = [];
    let found = 0;
    let scanned = 0;
    const t0 = performance.now();
    for (let run = 0; run < runs; run++) {
      let position: SearchPosition | null = null;
      found = 0;
      do {
        const t = performance.now();
        const slice = await source.searchJobs(TASK, "completed", filter, position, page - found);
        times.push(performance.now() - t);
        scanned += slice.scanned;
        found += matchesOf(filter, slice, present).length;
        position = slice.next;
      } while (position !== null && found < page);
    }
    const total = (performance.now() - t0) / runs;
    const log = await client.sendCommand(["SLOWLOG", "GET", "100000"]) as [
      number,
      number,
      number,
      string[],
    ][];
    const scripts = log.filter((entry) => /^EVAL/i.test(entry[3][0] ?? ""));
    const spread = (values: number[]) =>
      values.length === 0
        ? "none over 0.1 ms"
        : `median ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}, max ${
          ms(Math.max(...values))
        }`;
    console.log(
      `\n## ${name}${runs > 1 ? ` (${runs} runs)` : ""}\n` +
        `${times.length / runs} slice call(s) a run, ${
          (scanned / runs).toLocaleString("en")
        } jobs scanned, ${found} found, ${(total / 1000).toFixed(2)} s a run\n` +
        `per slice call, at the board: ${spread(times)}\n` +
        `per slice call, in Redis (SLOWLOG): ${
          spread(scripts.map((entry) => entry[2] / 1000))
        } of the ${scripts.length} of ${times.length} calls over 0.1 ms`,
    );
  }
  // Shared machines: other work on the cores shows in the p99 and max, not in the median.
  console.log(`\nload average at the end: ${load()} on ${navigator.hardwareConcurrency} cores`);
  await source.close();
} finally {
  await client.close();
  await redis.stop();
}
