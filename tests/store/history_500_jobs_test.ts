/**
 * Issue 36's first "done when", the recorder's side, on each store: a real
 * taskora worker with completed jobs kept 1 s completes 500 jobs; once
 * taskora removed them all, each has a summary (counted), the 24 h rollup
 * read a minute later counts 500 completions, and a job failing three
 * times has three attempts, each with its own error. One Redis and one
 * PostgreSQL for the file.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
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
import { createTaskora, failingThrice, redisAdapter, taskOf } from "../taskora/harness.ts";

const JOBS = 500;
const HOUR = 3_600_000;

const redis = await startRedis();
const postgres = await startPostgres();
const connection = new RedisConnection({ url: redis.url });
await connection.ready();
Deno.test.afterAll(async () => {
  await connection.close();
  await Promise.all([redis.stop(), postgres.stop()]);
});

/** Runs the scenario on a board with `history`, read through `store`. */
async function fiveHundredJobs(history: BoardOptions["history"], store: HistoryStore) {
  const client = await connectClient(redis.url);
  await client.flushAll();
  const app: any = createTaskora({
    adapter: redisAdapter(redis.url),
    retention: { completed: { maxAge: "1s" } },
  });
  app.task("send-email", {
    // taskora trims what it keeps at each stall check: every 100 ms here, not every 30 s.
    stall: { interval: 100, maxCount: 50 },
    concurrency: 50,
    handler: (data: { n: number }, ctx: { heartbeat(): void }) => {
      // Off taskora's stall check, which may run a job that completed again (taskora 0.5.0).
      ctx.heartbeat();
      return { sent: data.n };
    },
  });
  const failing = failingThrice();
  failing.define(app);
  app.on("task:failed", () => {});
  const board = createBoardOn(systemTimers, redis.url, { history });
  try {
    await app.start();
    const failingId = String(await taskOf(app, "charge-card").dispatch({ amount: 5 }));
    const ids: string[] = [];
    for (let n = 0; n < JOBS; n++) {
      ids.push(String(await taskOf(app, "send-email").dispatch({ n })));
    }
    await failing.failEach(async (attempt) =>
      (await store.summary("charge-card", failingId))?.attempts.length === attempt
    );
    await waitFor(async () => {
      const held = await client.exists(ids.map((id) => `${taskKeys("send-email").jobPrefix}${id}`));
      return Number(held) === 0;
    }, { what: "taskora's retention to remove every completed job", limitMs: 120_000 });

    const everyPage = async () => {
      const summaries = [];
      let cursor: string | undefined;
      do {
        const page = await store.search({ task: "send-email", limit: 200, cursor });
        summaries.push(...page.summaries);
        cursor = page.next ?? undefined;
      } while (cursor !== undefined);
      return summaries;
    };
    const summaries = await waitFor(async () => {
      const summaries = await everyPage();
      return summaries.length >= JOBS && summaries;
    }, { what: `the recorder to record the ${JOBS} jobs` });
    assert.equal(summaries.length, JOBS, "each job has one summary");
    assert.deepEqual(summaries.map((s) => s.id).sort(), ids.toSorted());
    assert.ok(summaries.every((s) => s.state === "completed" && s.attempts.length === 1));
    // A minute later, the 24 h chart: the hours from 24 h before then.
    const minuteLater = Math.max(...summaries.map((s) => s.finishedAt)) + 60_000;
    const day = await store.rollups({
      task: "send-email",
      resolution: "hour",
      from: minuteLater - 24 * HOUR,
      to: minuteLater,
    });
    assert.equal(day.reduce((sum, hour) => sum + hour.completed, 0), JOBS);
    assert.equal(day.reduce((sum, hour) => sum + hour.arrivals, 0), JOBS);
    const charged = await store.summary("charge-card", failingId);
    assert.equal(charged?.state, "failed");
    assert.deepEqual(charged?.attempts.map((a) => [a.attempt, a.outcome, a.error]), [
      [1, "retrying", "gateway timeout #1"],
      [2, "retrying", "gateway timeout #2"],
      [3, "failed", "gateway timeout #3"],
    ]);
  } finally {
    failing.release();
    await board.close();
    await app.close();
    await client.close();
  }
}

Deno.test("redis history: 500 jobs taskora removed are each summarised and in the 24 h rollup", async () => {
  await fiveHundredJobs(true, createRedisHistoryStore({ connection }));
});

Deno.test("postgres history: 500 jobs taskora removed are each summarised and in the 24 h rollup", async () => {
  const store = createPostgresHistoryStore({ url: postgres.url });
  try {
    await fiveHundredJobs({ postgres: postgres.url }, store);
  } finally {
    await store.close();
  }
});
