/**
 * What the board's readers of every task cost Redis, at 200 and at 1,000
 * tasks, counted by Redis itself (`INFO commandstats`): the SSE stats frames
 * of one open browser (nothing moving, then 10 tasks moving), what one
 * alert pass reads of the tasks, and a `/metrics` scrape. Measuring: each
 * grows with the number of tasks (at 1,000 tasks, 8 jobs each: a browser
 * 304 commands/s idle and 330 with 10 tasks moving, an alert pass 22,000,
 * a scrape 20,260).
 *
 * Every board runs on fake timers, so no background pass lands inside a
 * count unless the test ticks it there, and counts do not jitter. What runs
 * on the wall clock is left out of them: the event reader's blocking XREAD
 * (one every 2 s at most) and the test's own XADDs.
 */

import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { createBoardOn } from "../../src/board.ts";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import type { BoardOptions } from "../../src/options.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { backlogKey, taskKeys } from "../../src/source/wire/keys.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { fillRedis } from "../helpers/wire_writer.ts";
import { type Frame, isEvent, openStream, type SseStream } from "../events/sse_client.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const STATS_MS = 3000;
/** One stats cycle: every task is read once in it (`fullStatsEveryMs`). */
const CYCLE_MS = 30_000;
const EVENTS = "http://board.test/board/api/events";
/** Commands on the wall clock, or the test's own. */
const UNCOUNTED = ["xread", "xadd"];

/** Every per-task kind that reads the queues (none fires: the thresholds are out of reach). */
const ALERTS: AlertsFile = {
  evaluateEvery: "15s",
  sinks: [{
    name: "ops",
    type: "webhook",
    url: "http://127.0.0.1:9/never",
    secret: "a-webhook-secret-of-32-characters",
  }],
  rules: [
    { name: "backlog", kind: "backlog", threshold: 1e6, sinks: ["ops"] },
    { name: "failed", kind: "failed", threshold: 1e6, sinks: ["ops"] },
    { name: "oldest", kind: "oldestWaiting", threshold: 86_400_000, sinks: ["ops"] },
    { name: "overdue", kind: "overdue", threshold: 86_400_000, sinks: ["ops"] },
    { name: "stalled", kind: "stalled", threshold: 1e6, sinks: ["ops"] },
    { name: "stuck", kind: "noProgress", threshold: 86_400_000, sinks: ["ops"] },
    { name: "reruns", kind: "reruns", threshold: 1e6, sinks: ["ops"] },
    {
      name: "failing",
      kind: "failureRate",
      threshold: 100,
      window: "15m",
      minFinished: 1,
      sinks: ["ops"],
    },
  ],
};

/** One board process: its clock, its source and the board. */
interface Process {
  timers: FakeTimers;
  source: RedisTaskSource;
  board: ReturnType<typeof createBoardOn>;
}

/** A Redis of `tasks` tasks, 8 jobs each (one in every state), an hour of counters each. */
interface Fleet {
  client: Client;
  tasks: string[];
  /** Starts a board process on its own fake clock. */
  start(options?: BoardOptions): Process;
  /** Closes it: its leases go back, for the next process to take. */
  stop(process: Process): Promise<void>;
}

async function withFleet(tasks: number, fn: (fleet: Fleet) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const processes = new Set<Process>();
  const stop = async (process: Process) => {
    processes.delete(process);
    await process.board.close();
    await process.source.close();
  };
  try {
    await fillRedis(client as never, { jobs: tasks * 8, tasks });
    const names = Array.from({ length: tasks }, (_, i) => `task-${i}`).sort();
    await fn({
      client,
      tasks: names,
      start(options = {}) {
        const timers = new FakeTimers();
        // The tasks are known (no discovery SCAN), and the reconcile's budget is no limit: its
        // first count is over before anything is counted.
        const source = new RedisTaskSource({
          url: redis.url,
          tasks: names,
          commandTimeoutMs: 30_000,
          reconcileCommandsPerSecond: 1e9,
        }, timers);
        const board = createBoardOn(timers, source, { statsInterval: STATS_MS, ...options });
        const process = { timers, source, board };
        processes.add(process);
        return process;
      },
      stop,
    });
  } finally {
    for (const process of processes) await stop(process);
    await client.close();
    await redis.stop();
  }
}

/** The commands `work` costs Redis, those on the wall clock left out. */
async function counted(client: Client, work: () => Promise<unknown>): Promise<number> {
  const calls = await commandsOf(client, work);
  for (const name of UNCOUNTED) calls.delete(name);
  if (Deno.env.get("BY_COMMAND")) console.log(Object.fromEntries(calls));
  return totalCalls(calls);
}

/**
 * Waits until `stream` has `count` frames matching `match`: the hub flushes
 * on its (fake) timers, a fraction of a ms after the last flush, so each
 * look moves them on by 1 ms.
 */
async function framesOf(
  process: Process,
  stream: SseStream,
  match: (frame: Frame) => boolean,
  count: number,
): Promise<void> {
  await waitFor(async () => {
    await process.timers.tick(1);
    return stream.frames.filter(match).length >= count;
  }, { what: `${count} frames` });
}

/** Moves `process` on by one stats interval, and waits for the stats frame it sends. */
async function nextFrame(process: Process, stream: SseStream): Promise<void> {
  const sent = stream.frames.filter(isEvent("stats:update")).length;
  await process.timers.tick(STATS_MS);
  await framesOf(process, stream, isEvent("stats:update"), sent + 1);
}

/**
 * Opens a browser on `process` and lets what it wakes settle uncounted: the
 * first full stats reads, the reconcile's first count of every task, and
 * the leader's backlog sample of the minute (at 60 s; the next at 120 s).
 */
async function browse(fleet: Fleet, process: Process): Promise<SseStream> {
  const stream = await openStream(process.board.fetch, EVENTS);
  await framesOf(process, stream, isEvent("stats:update"), 1);
  for (let t = 0; t < 2 * CYCLE_MS; t += STATS_MS) await nextFrame(process, stream);
  await waitFor(
    () => [...process.source.retryingAsOf(fleet.tasks).values()].every((asOf) => asOf !== null),
    { what: "the reconcile's first count" },
  );
  await waitFor(
    async () => (await fleet.client.keys(backlogKey(0).replace(/0$/, "*"))).length > 0,
    { what: "the backlog sample" },
  );
  return stream;
}

/**
 * Commands per second of one open browser over one stats cycle, while
 * `moving` tasks each have one job event per interval.
 */
async function browserCost(fleet: Fleet, moving: number): Promise<number> {
  const process = fleet.start();
  const stream = await browse(fleet, process);
  try {
    const commands = await counted(fleet.client, async () => {
      for (let t = 0; t < CYCLE_MS; t += STATS_MS) {
        const seen = stream.frames.filter(isEvent("job:active")).length;
        for (const task of fleet.tasks.slice(0, moving)) {
          await fleet.client.sendCommand([
            "XADD",
            taskKeys(task).events,
            "*",
            "event",
            "active",
            "jobId",
            `moved-${t}`,
          ]);
        }
        // The reader hands the events over on its own time.
        await framesOf(process, stream, isEvent("job:active"), seen + moving);
        await nextFrame(process, stream);
      }
    });
    return commands / (CYCLE_MS / 1000);
  } finally {
    await stream.close();
    await fleet.stop(process);
  }
}

/**
 * The commands of what one alert pass reads of the tasks (its snapshot),
 * after a first one; the rest of a pass (the states, the rules, the
 * silences) is the same at any number of tasks.
 */
async function alertPassCost(fleet: Fleet): Promise<number> {
  const process = fleet.start();
  const { rules } = parseAlertsConfig(ALERTS);
  const read = async () => {
    const snapshot = await readSnapshot(process.source, rules, Date.now());
    assert.equal(snapshot.tasks?.size, fleet.tasks.length, "every task was measured");
  };
  try {
    await read();
    return await counted(fleet.client, read);
  } finally {
    await fleet.stop(process);
  }
}

/** The commands of one `/metrics` scrape, after a first one. */
async function scrapeCost(fleet: Fleet): Promise<number> {
  const process = fleet.start();
  const scrape = async () => {
    const response = await process.board.fetch(new Request("http://board.test/board/metrics"));
    assert.equal(response.status, 200);
    await response.text();
  };
  try {
    await scrape();
    return await counted(fleet.client, scrape);
  } finally {
    await fleet.stop(process);
  }
}

interface Costs {
  idle: number;
  moving: number;
  alertPass: number;
  scrape: number;
}

async function costsAt(tasks: number): Promise<Costs> {
  let costs: Costs | undefined;
  await withFleet(tasks, async (fleet) => {
    costs = {
      idle: await browserCost(fleet, 0),
      moving: await browserCost(fleet, 10),
      alertPass: await alertPassCost(fleet),
      scrape: await scrapeCost(fleet),
    };
  });
  console.log(`${tasks} tasks:`, costs);
  return costs!;
}

Deno.test("measuring: what each reader of every task costs Redis at 200 and at 1,000 tasks", async () => {
  const small = await costsAt(200);
  const large = await costsAt(1000);
  for (const costs of [small, large]) {
    assert.ok(costs.moving >= costs.idle, "events make the stats frames reread their tasks");
    assert.ok(costs.alertPass > 0 && costs.scrape > 0);
  }
});
