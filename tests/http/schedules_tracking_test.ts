/**
 * `GET /schedules` served from the tracking connection's cache
 * (`src/source/redis/tracked_fields.ts`) while nothing changed: the
 * schedules hash, the next-run set and the board runs' version. A change
 * taskora makes on its own connection shows once Redis's invalidation
 * arrives; a change made through the board shows in its very next answer;
 * Redis gone is a 503, and the board recovers by itself. Schedules written
 * and changed by a real taskora 0.5.0 App, on a real redis-server whose
 * commands Redis counts.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { hourlySchedulesApp } from "../helpers/hourly_schedules.ts";
import { connectClient, startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

interface Shown {
  name: string;
  paused: boolean;
  config: { data?: unknown };
}

type Board = ReturnType<typeof createBoardOn>;

/** The board's answer to `method` at `path` under its API (a POST's body `{}`), and its status. */
async function send(board: Board, method: string, path: string, body?: unknown): Promise<Response> {
  return await board.fetch(
    new Request(`http://localhost/board/api${path}`, {
      method,
      headers: { origin: "http://localhost", "content-type": "application/json" },
      body: body !== undefined ? JSON.stringify(body) : method === "POST" ? "{}" : undefined,
    }),
  );
}

/** The schedules `board` lists, by name. */
async function listed(board: Board): Promise<Map<string, Shown>> {
  const response = await send(board, "GET", "/schedules");
  assert.equal(response.status, 200, await response.clone().text());
  const shown: Shown[] = await response.json();
  return new Map(shown.map((schedule) => [schedule.name, schedule]));
}

/**
 * A board over `redis` beside a started App with three hourly schedules,
 * once a list with nothing changed sends Redis no command; closed after `fn`.
 */
async function withBoard(
  redis: TestRedis,
  fn: (board: Board, app: ReturnType<typeof hourlySchedulesApp>) => Promise<void>,
): Promise<void> {
  const client = await connectClient(redis.url);
  const app = hourlySchedulesApp(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 300 }, timers);
  const board = createBoardOn(timers, source);
  try {
    await app.start();
    assert.deepEqual([...(await listed(board)).keys()], ["hourly-0", "hourly-1", "hourly-2"]);
    // The first list reads and tracks; the second sends nothing (a cache that never fills
    // would hang here: waitFor is the guard).
    await waitFor(async () => (await commandsOf(client, () => listed(board))).size === 0, {
      what: "a list with nothing changed that sends Redis no command",
    });
    await fn(board, app);
  } finally {
    await app.close();
    await board.close();
    await source.close();
    client.destroy();
  }
}

Deno.test("an unchanged /schedules sends Redis no command; taskora's change shows once Redis says", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    await withBoard(redis, async (board, app) => {
      assert.deepEqual(Object.fromEntries(await commandsOf(client, () => listed(board))), {});

      // taskora, on its own connection, pauses one schedule and changes another's data.
      await app.schedules.pause("hourly-2");
      await app.schedules.update("hourly-1", { data: { i: 10 } });
      const changed = await waitFor(async () => {
        const schedules = await listed(board);
        return schedules.get("hourly-2")!.paused &&
          (schedules.get("hourly-1")!.config.data as { i: number }).i === 10 && schedules;
      }, { what: "taskora's changes to show" });
      assert.equal(changed.get("hourly-0")!.paused, false);
    });
  } finally {
    client.destroy();
    await redis.stop();
  }
});

Deno.test("the board's own pause and resume show in its very next /schedules", async () => {
  const redis = await startRedis();
  try {
    await withBoard(redis, async (board) => {
      const paused = await send(board, "POST", "/schedules/hourly-1/pause");
      assert.equal(paused.status, 200, await paused.text());
      assert.equal((await listed(board)).get("hourly-1")!.paused, true, "shown at once");

      const resumed = await send(board, "POST", "/schedules/hourly-1/resume");
      assert.equal(resumed.status, 200, await resumed.text());
      assert.equal((await listed(board)).get("hourly-1")!.paused, false, "shown at once");
    });
  } finally {
    await redis.stop();
  }
});

Deno.test("the board's own edit shows in its very next /schedules, another board's once Redis says", async () => {
  const redis = await startRedis();
  const timers = new FakeTimers();
  const otherSource = new RedisTaskSource({ url: redis.url, commandTimeoutMs: 300 }, timers);
  const other = createBoardOn(timers, otherSource);
  try {
    await withBoard(redis, async (board) => {
      const edited = await send(board, "PUT", "/schedules/hourly-0", { data: { i: 7 } });
      assert.equal(edited.status, 200, await edited.text());
      assert.deepEqual((await listed(board)).get("hourly-0")!.config.data, { i: 7 }, "at once");

      // Another board on the same Redis pauses one schedule and edits another.
      const paused = await send(other, "POST", "/schedules/hourly-2/pause");
      assert.equal(paused.status, 200, await paused.text());
      const otherEdit = await send(other, "PUT", "/schedules/hourly-1", { data: { i: 11 } });
      assert.equal(otherEdit.status, 200, await otherEdit.text());
      const changed = await waitFor(async () => {
        const schedules = await listed(board);
        return schedules.get("hourly-2")!.paused &&
          (schedules.get("hourly-1")!.config.data as { i: number }).i === 11 && schedules;
      }, { what: "the other board's changes to show" });
      assert.deepEqual(changed.get("hourly-0")!.config.data, { i: 7 });
      assert.equal(changed.get("hourly-0")!.paused, false);
    });
  } finally {
    await other.close();
    await otherSource.close();
    await redis.stop();
  }
});

Deno.test("a /schedules served from the cache is a 503 once Redis is down, and recovers", async () => {
  const redis = await startRedis();
  try {
    await withBoard(redis, async (board) => {
      await redis.stop();
      // Once the board's connections hear the server is gone (their sockets close a moment
      // after the process ends).
      await waitFor(async () => {
        const response = await send(board, "GET", "/schedules");
        await response.body?.cancel();
        return response.status === 503;
      }, { what: "a 503 with Redis down" });
      await redis.restart();
      // The empty Redis, not what the cache held.
      await waitFor(async () => {
        const response = await send(board, "GET", "/schedules");
        return response.status === 200 && (await response.json()).length === 0;
      }, { what: "the board to recover" });
    });
  } finally {
    await redis.stop();
  }
});
