/**
 * The history across every task, for a user whose `can` refuses some tasks'
 * `history.read`: a search leaves the refused task's jobs out of the page,
 * and the page's `next` (where the store stopped looking) names none of
 * their ids, while paging on still finds every job the user may read; a
 * chart across every task counts none of the refused task's jobs; and what
 * a cap cut is said only of the tasks the user may read.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { completedEntry as completed } from "../helpers/history_entries.ts";
import { startRedis } from "../helpers/redis_server.ts";

/** What a case is given: the board, a connection to its Redis, and a write to its history. */
interface World {
  board: ReturnType<typeof createBoard>;
  connection: RedisConnection;
  write(entries: HistoryEntry[]): Promise<unknown>;
}

/**
 * Runs `body` on a board recording history on a throwaway Redis, whose `can`
 * refuses `history.read` on payroll to everyone but oz.
 */
async function withBoard(body: (world: World) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const board = createBoard(redis.url, {
    history: true,
    auth: (request) => {
      const name = request.headers.get("x-user");
      return name ? { name, role: "viewer" } : undefined;
    },
    can: (user, action, target) =>
      !(action === "history.read" && target === "payroll") || user?.name === "oz",
  });
  const connection = new RedisConnection({ url: redis.url });
  try {
    await connection.ready();
    const store = createRedisHistoryStore({ connection });
    await body({ board, connection, write: (entries) => store.write({ entries }) });
  } finally {
    await connection.close();
    await board.close();
    await redis.stop();
  }
}

/** GET `path` under the board's API as `user`: its 200 answer's body. */
async function read(board: World["board"], path: string, user: string) {
  const response = await board.fetch(
    new Request(`http://board.test/board/api${path}`, { headers: { "x-user": user } }),
  );
  assert.equal(response.status, 200, path);
  return await response.json();
}

Deno.test("a history page's cursor names no job of a task the user may not read", async () => {
  await withBoard(async ({ board, write }) => {
    const at = Date.now() - 60_000;
    await write([
      completed("mail", "mail-1", at - 2000),
      completed("payroll", "salary-of-alice", at - 1000),
      completed("mail", "mail-2", at),
    ]);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const more: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
      const body = await read(board, `/history/jobs?limit=1${more}`, "vic");
      seen.push(...body.jobs.map((job: { id: string }) => job.id));
      cursor = body.next;
      if (cursor === null) break;
      assert.doesNotMatch(atob(cursor), /salary-of-alice/, "the refused job's id is not told");
    }
    assert.deepEqual(seen, ["mail-2", "mail-1"], "every job the user may read, once");
  });
});

Deno.test("a history chart across every task counts no job of a task the user may not read", async () => {
  await withBoard(async ({ board, connection, write }) => {
    // Both tasks have a key in taskora's keyspace, so the source lists them.
    for (const task of ["mail", "payroll"]) {
      await connection.call(["ZADD", `taskora:{${task}}:marker`, "0", "0"]);
    }
    const at = Date.now() - 60_000;
    await write([
      completed("mail", "mail-1", at),
      ...[1, 2, 3].map((n) => completed("payroll", `pay-${n}`, at)),
    ]);
    const completedFor = async (user: string) => {
      const body = await read(board, "/history/rollups?range=1h", user);
      const inPoints = body.points.reduce(
        (sum: number, point: { completed: number }) => sum + point.completed,
        0,
      );
      return [body.totals.completed, inPoints];
    };
    assert.deepEqual(await completedFor("oz"), [4, 4], "every task's, to a user who may read all");
    assert.deepEqual(await completedFor("vic"), [1, 1], "payroll's left out");
  });
});

Deno.test("a history page says what a cap cut only of the tasks the user may read", async () => {
  await withBoard(async ({ board, connection }) => {
    const at = Date.now() - 60_000;
    // Each task keeps its newest two: the oldest two of payroll's four are cut.
    await createRedisHistoryStore({ connection, limits: { maxPerTask: 2 } }).write({
      entries: [
        completed("mail", "mail-1", at),
        ...[1, 2, 3, 4].map((n) => completed("payroll", `pay-${n}`, at + n * 1000)),
      ],
    });
    const payrollCut = { dropped: 2, newestDroppedAt: at + 2000 };
    const cappedFor = async (user: string, query = "") =>
      (await read(board, `/history/jobs?limit=10${query}`, user)).capped;
    assert.deepEqual(await cappedFor("oz"), payrollCut, "every task's, to a user who may read all");
    assert.deepEqual(await cappedFor("oz", "&task=payroll"), payrollCut);
    assert.equal(await cappedFor("oz", "&task=mail"), null, "mail lost nothing");
    assert.equal(await cappedFor("vic"), null, "nothing said of payroll");
    assert.equal(await cappedFor("vic", "&task=mail"), null);
  });
});
