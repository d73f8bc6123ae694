/**
 * Whether the history's recorder keeps up (issue 36): a board on a real
 * Redis with the history on, its recorder on the change feed, while a writer
 * adds jobs' events as taskora writes them (each job's hash with `ts`,
 * `processedOn`, `finishedOn`, `attempt`, `_v`, `error`, and its `waiting`,
 * `active`, `retrying`, `completed` or `failed` entries, `XADD … MAXLEN ~
 * 10000`) at 2,000 events a second over 10 tasks; of every 10 jobs, 7
 * complete at once, 2 retry once, 1 fails three times.
 *
 * Measured, on Redis and on PostgreSQL, and with the history off:
 * - the lag: how old the newest recorded event of the most behind task is
 *   (the recorder's `queue_board_recorder_lag_seconds`, read from the ids
 *   the history saves with each batch), sampled every 250 ms: at most 2 s;
 * - the commands the board sent Redis per recorded event (a recorded event
 *   ends an attempt: `retrying`, `completed`, `failed`), counted by a proxy
 *   the board alone goes through, so the writer's own are left out and a
 *   script is one command: at most 2. With the history off and nobody
 *   watching, the board sends only its lease renewals.
 *
 * `deno run --allow-all tests/bench/recorder.ts [--seconds 20] [--rate 2000]`
 */

import { createBoardOn } from "../../src/board.ts";
import type { HistoryStore } from "../../src/history/store.ts";
import type { BoardOptions } from "../../src/options.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { systemTimers } from "../../src/timers.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { startRoundTripProxy } from "./rtt_proxy.ts";

const option = (name: string, fallback: number) => {
  const at = Deno.args.indexOf(`--${name}`);
  return at < 0 ? fallback : Number(Deno.args[at + 1]);
};
const SECONDS = option("seconds", 20);
const RATE = option("rate", 2000);
const TASKS = Array.from({ length: 10 }, (_, i) => `task-${i}`);
const ENDING = new Set(["retrying", "completed", "failed"]);

const redis = await startRedis();
const writer = await connectClient(redis.url);
const proxy = startRoundTripProxy(redis.port);

/** The commands that write one job as taskora leaves it, and how many events they add. */
function jobCommands(job: number, now: number): { commands: string[][]; events: string[] } {
  const task = TASKS[job % TASKS.length];
  const id = `job-${job}`;
  const kind = job % 10;
  const attempts = kind < 7 ? 1 : kind < 9 ? 2 : 3;
  const keys = taskKeys(task);
  const events: string[][] = [["event", "waiting", "jobId", id]];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    events.push(["event", "active", "jobId", id, "attempt", String(attempt)]);
    if (attempt < attempts) {
      events.push(["event", "retrying", "jobId", id, "attempt", String(attempt + 1)]);
    } else if (kind === 9) events.push(["event", "failed", "jobId", id, "attempt", "3"]);
    else events.push(["event", "completed", "jobId", id, "result", "{}", "attempt", "1"]);
  }
  const failed = kind >= 7;
  return {
    commands: [
      [
        ...["HSET", `${keys.jobPrefix}${id}`, "state", kind === 9 ? "failed" : "completed"],
        ...["ts", String(now - 40), "processedOn", String(now - 20), "finishedOn", String(now)],
        ...["attempt", String(attempts), "_v", "1", "data", '{"n":1}', "result", "{}"],
        ...(failed ? ["error", `gateway timeout #${attempts}`] : []),
      ],
      ...events.map((fields) => ["XADD", keys.events, "MAXLEN", "~", "10000", "*", ...fields]),
    ],
    events: events.map((fields) => fields[1]),
  };
}

/** Percentile `p` (0–1) of `values`. */
function percentile(values: number[], p: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
}

/** The age of the newest recorded event of the most behind task, ms (Infinity before each has one). */
async function lagOf(history: HistoryStore | null, now: number): Promise<number> {
  if (!history) return 0;
  const cursors = await history.cursors();
  const times = TASKS.map((task) => cursors[task] ? Number(cursors[task].split("-")[0]) : 0);
  return now - Math.min(...times);
}

/** Runs the writer for {@link SECONDS} against a board with `history`; prints what it cost. */
async function measure(label: string, history: BoardOptions["history"], read: HistoryStore | null) {
  await writer.flushAll();
  let job = 0;
  // One job of each task before the board starts: it finds every task at once.
  for (; job < TASKS.length; job++) {
    await Promise.all(jobCommands(job, Date.now()).commands.map((c) => writer.sendCommand(c)));
  }
  const board = createBoardOn(systemTimers, proxy.url, { history });
  try {
    if (read) {
      await waitFor(async () => await lagOf(read, Date.now()) < 60_000, {
        what: `${label}: the board to record every task`,
      });
    } else await new Promise((resolve) => setTimeout(resolve, 2000));
    proxy.reset();
    const lags: number[] = [];
    let written = 0;
    let recorded = 0;
    const started = performance.now();
    let sampledAt = started;
    while (performance.now() - started < SECONDS * 1000) {
      // Catch up to the rate: as many jobs as the elapsed time owes, one pipeline.
      const commands: string[][] = [];
      while (written < RATE * (performance.now() - started) / 1000 && commands.length < 2000) {
        const next = jobCommands(job++, Date.now());
        commands.push(...next.commands);
        written += next.events.length;
        recorded += next.events.filter((event) => ENDING.has(event)).length;
      }
      await Promise.all(commands.map((command) => writer.sendCommand(command)));
      if (performance.now() - sampledAt >= 250) {
        sampledAt = performance.now();
        lags.push(await lagOf(read, Date.now()));
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const seconds = (performance.now() - started) / 1000;
    const commands = proxy.commands;
    const perEvent = commands / recorded;
    const lagMax = read ? Math.max(...lags) : 0;
    console.log(
      `${label}: ${Math.round(written / seconds)} events/s written (${recorded} ending), ` +
        `${commands} commands from the board: ${perEvent.toFixed(2)} per recorded event, ` +
        `${(commands / seconds).toFixed(1)}/s` +
        (read
          ? `; lag p50 ${(percentile(lags, 0.5) / 1000).toFixed(2)} s, max ` +
            `${(lagMax / 1000).toFixed(2)} s`
          : ""),
    );
    // The targets: with the history on, at most 2 commands per recorded event and a lag of at
    // most 2 s; off, nothing that grows with the events (an idle board's lease turns only).
    const missed = [
      ...(perEvent > (read ? 2 : 0.01) ? [`${perEvent.toFixed(2)} commands per event`] : []),
      ...(lagMax > 2000 ? [`a lag of ${(lagMax / 1000).toFixed(2)} s`] : []),
    ];
    if (missed.length > 0) {
      console.error(`${label}: missed its target: ${missed.join(", ")}`);
      Deno.exitCode = 1;
    }
  } finally {
    await board.close();
  }
}

const connection = new RedisConnection({ url: redis.url });
const postgres = await startPostgres();
const postgresHistory = createPostgresHistoryStore({ url: postgres.url });
try {
  await connection.ready();
  console.log(`${RATE} events/s for ${SECONDS} s over ${TASKS.length} tasks`);
  await measure("history off", false, null);
  await measure("redis history", true, createRedisHistoryStore({ connection }));
  await measure("postgres history", { postgres: postgres.url }, postgresHistory);
} finally {
  await postgresHistory.close();
  await postgres.stop();
  await connection.close();
  proxy.close();
  await writer.close();
  await redis.stop();
}
