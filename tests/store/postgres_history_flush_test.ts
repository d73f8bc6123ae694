/**
 * The history in PostgreSQL survives the board's Redis: a board records a
 * real taskora worker's jobs (completed jobs kept 1 s, a job failing three
 * times); it stops, and its keys in Redis are deleted, the change feed's
 * ids among them. The next board has no ids, so it reads again every entry
 * taskora's streams still hold (the backfill of a first start), for jobs
 * taskora has mostly removed: the idempotent writes keep every summary,
 * attempt and rollup count as it was. Then the whole Redis is flushed and
 * a third board starts: the history is all there, and its `/metrics` says so.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { HistoryStore } from "../../src/history/store.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { feedKeys } from "../../src/store/redis/feed.ts";
import { createPostgresHistoryStore } from "../../src/store/postgres/history.ts";
import { systemTimers } from "../../src/timers.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createTaskora, failingThrice, redisAdapter, taskOf } from "../taskora/harness.ts";

const TASKS = ["tick", "charge-card"];

/** Everything a reader of the history sees: the summaries, the minute rollups, the holding. */
async function everything(history: HistoryStore, around: number) {
  const { summaries } = await history.search({ limit: 200 });
  const rollups = await Promise.all(
    [{}, ...TASKS.map((task) => ({ task }))].map((scope) =>
      history.rollups({
        ...scope,
        resolution: "minute",
        from: around - 3_600_000,
        to: around + 3_600_000,
      })
    ),
  );
  return { summaries, rollups, holding: await history.holding() };
}

Deno.test("postgres history: all there after the board's Redis keys, then the whole Redis, are flushed", async () => {
  const [redis, postgres] = await Promise.all([startRedis(), startPostgres()]);
  const history = createPostgresHistoryStore({ url: postgres.url });
  const client = await connectClient(redis.url);
  const app: any = createTaskora({
    adapter: redisAdapter(redis.url),
    retention: { completed: { maxAge: "1s" } },
  });
  app.task("tick", {
    // taskora trims what it keeps at each stall check: every 100 ms here, not every 30 s.
    stall: { interval: 100, maxCount: 50 },
    handler: (data: { n: number }, ctx: { heartbeat(): void }) => {
      ctx.heartbeat();
      return data.n;
    },
  });
  const charge = failingThrice();
  charge.define(app);
  app.on("task:failed", () => {});
  const options = { history: { postgres: postgres.url } };
  let board = createBoardOn(systemTimers, redis.url, options);
  try {
    await app.start();
    const ids: string[] = [];
    for (let n = 0; n < 20; n++) ids.push(String(await taskOf(app, "tick").dispatch({ n })));
    const failing = String(await taskOf(app, "charge-card").dispatch({}));
    await charge.failEach(async (attempt) =>
      (await history.summary("charge-card", failing))?.attempts.length === attempt
    );
    await waitFor(async () => (await history.holding()).summaries === ids.length + 1, {
      what: "the board to record every job",
    });
    await waitFor(async () => {
      const held = await Promise.all(
        ids.map((id) => client.exists(`${taskKeys("tick").jobPrefix}${id}`)),
      );
      return held.every((n) => Number(n) === 0);
    }, { what: "taskora's retention to remove the completed jobs" });
    const around = Date.now();
    const recorded = await everything(history, around);
    assert.equal(recorded.summaries.length, ids.length + 1);
    assert.equal(recorded.rollups[0].reduce((sum, minute) => sum + minute.completed, 0), 20);
    assert.deepEqual(
      (await history.summary("charge-card", failing))?.attempts.map((a) => [a.outcome, a.error]),
      [
        ["retrying", "gateway timeout #1"],
        ["retrying", "gateway timeout #2"],
        ["failed", "gateway timeout #3"],
      ],
    );

    // The board stops and its keys go: the feed's ids with them. The feed saves its ids after a
    // pass that follows its batches, not at a stop: the stop waits for one.
    await waitFor(async () => Number(await client.exists(feedKeys().ids)) === 1, {
      what: "the feed to save its ids",
    });
    await board.close();
    const boardKeys = [];
    for await (const keys of client.scanIterator({ MATCH: "taskora:board:*", COUNT: 1000 })) {
      boardKeys.push(...keys);
    }
    assert.ok(boardKeys.includes(feedKeys().ids), "the feed had saved its ids");
    await client.del(boardKeys);
    const lastIds = Object.fromEntries(
      await Promise.all(TASKS.map(async (task) => {
        const [last] = await client.xRevRange(taskKeys(task).events, "+", "-", { COUNT: 1 });
        return [task, last.id];
      })),
    );
    board = createBoardOn(systemTimers, redis.url, options);
    // The feed starts from each stream's first entry and records what it reads again.
    await waitFor(async () => {
      const saved = await client.hGetAll(feedKeys().ids);
      return TASKS.every((task) => saved[task] === lastIds[task]);
    }, { what: "the next board to read every stream to its end" });
    assert.deepEqual(await history.cursors(), lastIds, "the history wrote what it read again");
    assert.deepEqual(await everything(history, around), recorded, "nothing recorded twice");

    // taskora's jobs ended: the whole Redis goes, and a board starts on it again.
    await board.close();
    await client.flushAll();
    board = createBoardOn(systemTimers, redis.url, options);
    assert.deepEqual(await everything(history, around), recorded, "all there");
    const metrics = await (await board.fetch(new Request("http://localhost/board/metrics"))).text();
    assert.match(metrics, new RegExp(`^queue_board_history_summaries ${ids.length + 1}$`, "m"));
    assert.match(metrics, /^queue_board_history_capped 0$/m);
  } finally {
    charge.release();
    await board.close();
    await app.close();
    await client.close();
    await history.close();
    await Promise.all([postgres.stop(), redis.stop()]);
  }
});
