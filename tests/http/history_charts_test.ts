/**
 * `GET /history/rollups` and `GET /history/week` on a board that records
 * its history in Redis: percentiles read from the merged sketches of the
 * buckets (checked against the exact ones of known durations, within the
 * sketch's 2 %), every bucket of the range answered, refusals that name
 * the field, a 404 where no history is kept, a 403 without `history.read`,
 * and a 503 while Redis is away that heals by itself.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { bucketOf } from "../../src/history/rollup.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

const MINUTE = 60_000;

type Fetcher = { fetch: (request: Request) => Response | Promise<Response> };

async function get(board: Fetcher, path: string, user?: string) {
  const response = await board.fetch(
    new Request(`http://board.test/board/api${path}`, {
      headers: user === undefined ? {} : { "x-user": user },
    }),
  );
  return { status: response.status, body: await response.json() };
}

/** A completed attempt of `task` that waited `waitMs` and ran `runMs`, ending at `endedAt`. */
function completed(
  task: string,
  n: number,
  { endedAt, runMs, waitMs }: { endedAt: number; runMs: number; waitMs: number },
): HistoryEntry {
  const startedAt = endedAt - runMs;
  return {
    task,
    id: `job-${n}`,
    event: `${endedAt}-${n}`,
    attempt: 1,
    outcome: "completed",
    version: 1,
    createdAt: startedAt - waitMs,
    startedAt,
    endedAt,
    error: null,
    errorShape: null,
  };
}

/** The value at quantile `q` of `sorted`, as a sketch's rank reads it. */
function exact(sorted: readonly number[], q: number): number {
  return sorted[Math.round(q * (sorted.length - 1))];
}

function assertNear(actual: number, expected: number, what: string) {
  assert.ok(
    Math.abs(actual - expected) <= expected * 0.02,
    `${what}: ${actual} is not within 2 % of ${expected}`,
  );
}

Deno.test("percentiles of a range are read from the merged sketches of its buckets, at every resolution", async () => {
  const redis = await startRedis();
  const board = createBoard(redis.url, { history: true });
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    // 1,000 runs of 1..1,000 ms over five minutes, the shortest first: each minute's p95 is far
    // from the range's, so an average of the minutes' percentiles (590 ms) would miss 950 ms.
    const first = bucketOf(Date.now(), "minute") - 10 * MINUTE;
    const runs = Array.from({ length: 1000 }, (_, i) => i + 1);
    const entries = runs.map((runMs, i) =>
      completed("render", i, {
        endedAt: first + Math.floor(i / 200) * MINUTE + 30_000,
        runMs,
        waitMs: 2 * runMs,
      })
    );
    await createRedisHistoryStore({ connection }).write({ entries });

    for (const range of ["1h", "7d", "90d"] as const) {
      const { status, body } = await get(board, `/history/rollups?task=render&range=${range}`);
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.totals.completed, 1000, range);
      assert.equal(body.totals.arrivals, 1000, range);
      assert.equal(body.totals.failureRate, 0, range);
      for (const q of [0.5, 0.95, 0.99]) {
        const key = `p${Math.round(q * 100)}` as "p50" | "p95" | "p99";
        assertNear(body.totals.run[key], exact(runs, q), `${range} run ${key}`);
        assertNear(body.totals.wait[key], 2 * exact(runs, q), `${range} wait ${key}`);
      }
    }
    assert.equal((await get(board, "/config")).body.history, true);
    const { body: hour } = await get(board, "/history/rollups?range=1h");
    assert.equal(hour.resolution, "minute");
    assert.equal(hour.task, null);
    assert.equal(hour.points.length, 60, "every minute of the hour, the empty ones as zeros");
    const held = hour.points.filter((point: { completed: number }) => point.completed > 0);
    assert.deepEqual(
      held.map((point: { at: number }) => point.at),
      [0, 1, 2, 3, 4].map((k) => first + k * MINUTE),
    );
    assert.ok(held.every((point: { completed: number }) => point.completed === 200));
    // Each minute's own p95: 190, 390, ... ms.
    held.forEach((point: { run: { p95: number } }, k: number) =>
      assertNear(point.run.p95, exact(runs.slice(k * 200, k * 200 + 200), 0.95), `minute ${k} p95`)
    );
    const empty = hour.points.find((point: { completed: number }) => point.completed === 0);
    assert.deepEqual([empty.failureRate, empty.run, empty.wait], [null, null, null]);
    const { body: quarter } = await get(board, "/history/rollups?range=90d");
    assert.deepEqual([quarter.resolution, quarter.points.length], ["day", 90]);
    const { body: month } = await get(board, "/history/rollups?range=30d");
    assert.deepEqual([month.resolution, month.points.length], ["hour", 720]);

    const week = await get(board, "/history/week?task=render");
    assert.equal(week.status, 200);
    assert.equal(week.body.current.completed, 1000);
    assertNear(week.body.current.run.p95, exact(runs, 0.95), "the week's p95");
    assert.equal(week.body.previous, null, "nothing was recorded the week before");
  } finally {
    await connection.close();
    await board.close();
    await redis.stop();
  }
});

Deno.test("a chart's query is refused naming the field; no history is a 404; history.read is asked", async () => {
  const source = createMemorySource();
  const board = createBoard(source, {
    auth: (request) => {
      const [name, role] = (request.headers.get("x-user") ?? "").split(":");
      return name ? { name, role } : undefined;
    },
    can: (user, action, target) =>
      action !== "history.read" || target !== "billing" || user?.name === "oz",
  });
  try {
    for (
      const [path, param] of [
        ["/history/rollups?range=2h", "range"],
        ["/history/rollups?version=2", "version"],
        ["/history/rollups?task=a&version=x", "version"],
        ["/history/week", "task"],
      ]
    ) {
      const { status, body } = await get(board, path, "vic:viewer");
      assert.equal(status, 400, path);
      assert.deepEqual([body.code, body.param], ["INVALID_PARAM", param], path);
    }
    const off = await get(board, "/history/rollups", "vic:viewer");
    assert.equal(off.status, 404);
    assert.equal(off.body.code, "HISTORY_OFF");
    assert.match(off.body.error, /records no history/);
    const refused = await get(board, "/history/week?task=billing", "vic:viewer");
    assert.deepEqual([refused.status, refused.body.code], [403, "FORBIDDEN"]);
    assert.equal((await get(board, "/history/week?task=billing", "oz:viewer")).status, 404);
    const config = await get(board, "/config", "vic:viewer");
    assert.ok(config.body.allowed.includes("history.read"), "a viewer's, asked of every task");
    assert.equal(config.body.history, false);
  } finally {
    await source.close();
  }
});

Deno.test("the history's charts answer 503 while its Redis is away, and again once it is back", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 300 });
  const board = createBoard(source, { history: true });
  const charts = async () => (await get(board, "/history/rollups?range=6h")).status;
  try {
    await waitFor(async () => await charts() === 200, { what: "the board to answer" });
    await redis.stop({ keepData: true });
    const { status, body } = await get(board, "/history/week?task=a");
    assert.deepEqual([status, body.code], [503, "STORE_UNAVAILABLE"]);
    assert.equal(await charts(), 503);
    await redis.start();
    await waitFor(async () => await charts() === 200, { what: "the board to recover" });
  } finally {
    await board.close();
    await redis.stop();
  }
});
