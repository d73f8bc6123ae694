/**
 * What a page load costs a board over the fleet of the browser tests
 * (`tests/e2e/fleet_test.ts`): 1,000 tasks (`tests/helpers/fleet.ts`) and the
 * fixture's 11 in a real Redis, the board in this process with
 * `statsInterval: 60_000` and a 10 s command timeout, as there. Each round
 * waits `--gap` seconds (with one browser's event stream held open, or with
 * none), then loads a page: a new event stream and the page's first requests
 * (config, the overview's first 50 rows, alerts, the migration lock) at once.
 * Prints each request's answer time, the Redis commands and the board's CPU
 * until Redis goes quiet again (what the load set going, a feed's first pass
 * included), and their medians. Wall time: a benchmark, not a test.
 *
 * `deno run -A tests/bench/page_load.ts [--gap 35] [--rounds 3]` (about 4 min at the defaults).
 */

import { parseArgs } from "node:util";
import { createBoardOn } from "../../src/board.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { systemTimers } from "../../src/timers.ts";
import { commandsOf, commandsRun, totalCalls } from "../helpers/command_stats.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { writeFleet } from "../helpers/fleet.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { median, sleep } from "./medians.ts";
import { cpuMsOf } from "./process_cpu.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { gap: { type: "string", default: "35" }, rounds: { type: "string", default: "3" } },
});
const GAP_MS = Number(values.gap) * 1000;
const ROUNDS = Number(values.rounds);
const FLEET = 1000;
const PAGE_REQUESTS = ["config", "overview?limit=50", "alerts", "migration-lock"];
/** Redis is quiet once a look this long after the last finds at most a lease's few commands. */
const QUIET_MS = 700;

const redis = await startRedis();
const client = await connectClient(redis.url);
const now = Date.now();
await loadFixture(redis.url, { at: now, metricsAt: now });
await writeFleet(client, FLEET);
const source = createRedisSource({ url: redis.url, commandTimeoutMs: 10_000 });
const board = createBoardOn(systemTimers, source, { statsInterval: 60_000 });
const api = (path: string, signal?: AbortSignal) =>
  board.fetch(new Request(`http://localhost/board/api/${path}`, { signal }));

/** Waits until Redis runs (almost) nothing for {@link QUIET_MS}. */
async function quiet(): Promise<void> {
  let before = totalCalls(await commandsRun(client));
  for (;;) {
    await sleep(QUIET_MS);
    const after = totalCalls(await commandsRun(client));
    if (after - before < 5) return;
    before = after;
  }
}

/** One page load: its answers' times (ms), then Redis's commands and the board's CPU until quiet. */
async function pageLoad(): Promise<{ answers: string; commands: number; cpuMs: number }> {
  const stream = new AbortController();
  const cpuBefore = await cpuMsOf(Deno.pid);
  let answers = "";
  const calls = await commandsOf(client, async () => {
    const start = performance.now();
    const events = await api("events", stream.signal);
    const times = await Promise.all(PAGE_REQUESTS.map(async (path) => {
      const answer = await api(path);
      await answer.text();
      return `${path.split("?")[0]} ${answer.status} ${(performance.now() - start).toFixed(0)} ms`;
    }));
    answers = times.join(", ");
    await quiet();
    stream.abort();
    await events.body?.cancel().catch(() => {});
  });
  return { answers, commands: totalCalls(calls), cpuMs: (await cpuMsOf(Deno.pid)) - cpuBefore };
}

try {
  await waitFor(async () => {
    const answer = await api("overview?limit=50");
    return answer.ok && (await answer.json()).matched === FLEET + 11;
  }, { what: "the board's first overview of the fleet", limitMs: 120_000 });
  for (const browserOpen of [true, false]) {
    const held = browserOpen ? await api("events") : null;
    const commands: number[] = [];
    const cpu: number[] = [];
    console.log(browserOpen ? "a browser open, frames a minute apart:" : "no browser:");
    for (let round = 0; round < ROUNDS; round++) {
      await sleep(GAP_MS);
      const load = await pageLoad();
      commands.push(load.commands);
      cpu.push(load.cpuMs);
      console.log(`  ${load.answers}; ${load.commands} commands, ${load.cpuMs.toFixed(0)} ms CPU`);
    }
    console.log(`  median: ${median(commands)} commands, ${median(cpu).toFixed(0)} ms CPU`);
    await held?.body?.cancel();
  }
} finally {
  await board.close();
  await source.close();
  client.destroy();
  await redis.stop();
}
