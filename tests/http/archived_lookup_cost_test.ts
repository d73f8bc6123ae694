/**
 * `GET /jobs/{id}` of a job taskora no longer holds, on a real Redis with 200
 * tasks: the history finds it by its id alone, one read of its index by id,
 * not one summary read per task (200 before); a miss reads no summary at
 * all. Under a `can` that refuses some tasks' `history.read`, the page comes
 * from a task the user may read, and a refused task's summary is not read.
 * Counted in Redis commands (`INFO commandstats` deltas), on a follower on
 * fake timers, so that no work of the board's own lands between the counts.
 */

import assert from "node:assert/strict";
import type { HistoryEntry } from "../../src/history/summary.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { completedEntry } from "../helpers/history_entries.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

const TASKS = Array.from({ length: 200 }, (_, i) => `task-${String(i).padStart(3, "0")}`);

/** A completed job `id` of `task`, ended a minute ago. */
function completed(task: string, id: string): HistoryEntry {
  return completedEntry(task, id, Date.now() - 60_000);
}

type Client = Awaited<ReturnType<typeof connectClient>>;

/**
 * The commands of a count but the source's own probe of every task for a
 * job taskora may hold (one `TYPE` per task, in one round trip): what the
 * history's part of a lookup cost.
 */
function besideTheProbe(calls: Map<string, number>): Record<string, number> {
  return Object.fromEntries([...calls].filter(([name]) => name !== "type"));
}

/** What a case is given: GET a job's page as a user, and count what it costs Redis. */
interface World {
  page(id: string, user: string): Promise<{ status: number; body: Record<string, unknown> }>;
  client: Client;
}

/**
 * Runs `body` on a board over 200 tasks recording history on a throwaway
 * Redis, whose history holds `entries` and whose `can` refuses
 * `history.read` on `task-000` to everyone but oz.
 */
async function withBoard(
  entries: HistoryEntry[],
  body: (world: World) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  // Another board leads: this one runs no feed, recorder or trim that would land between counts.
  await client.set("taskora:board:lease:board", "the-leader", { PX: 3_600_000 });
  const connection = new RedisConnection({ url: redis.url });
  const board = createBoardOn(
    new FakeTimers(),
    createRedisSource({ url: redis.url, tasks: TASKS }),
    {
      history: true,
      auth: (request) => {
        const name = request.headers.get("x-user");
        return name ? { name, role: "viewer" } : undefined;
      },
      can: (user, action, target) =>
        !(action === "history.read" && target === "task-000") || user?.name === "oz",
    },
  );
  try {
    await connection.ready();
    await createRedisHistoryStore({ connection }).write({ entries });
    const page = async (id: string, user: string) => {
      const response = await board.fetch(
        new Request(`http://board.test/board/api/jobs/${id}`, { headers: { "x-user": user } }),
      );
      return { status: response.status, body: await response.json() };
    };
    // Connecting, the wire-version check and the first script loads are not a lookup's cost.
    await page("warm-up", "oz");
    await body({ page, client });
  } finally {
    await board.close();
    await connection.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("a job taskora no longer holds: found by its id in one read at 200 tasks, a miss reads no summary", async () => {
  await withBoard([completed("task-150", "gone-1")], async ({ page, client }) => {
    let missed = { status: 0, body: {} as Record<string, unknown> };
    const miss = await commandsOf(client, async () => missed = await page("no-such-job", "ann"));
    assert.equal(missed.status, 404);
    assert.equal(missed.body.code, "JOB_NOT_FOUND");
    assert.deepEqual(besideTheProbe(miss), { zrangebylex: 1 }, "no summary read per task");
    let found = { status: 0, body: {} as Record<string, unknown> };
    const hit = await commandsOf(client, async () => found = await page("gone-1", "ann"));
    assert.equal(found.status, 200);
    assert.deepEqual([found.body.task, found.body.state], ["task-150", "completed"]);
    assert.ok(found.body.archived, "from the history");
    assert.deepEqual(besideTheProbe(hit), { zrangebylex: 1, hgetall: 1 }, "the one summary");
  });
});

Deno.test("a job found by its id alone comes from a task the user may read; a refused one is not read", async () => {
  const entries = [
    completed("task-000", "twin"),
    completed("task-001", "twin"),
    completed("task-000", "secret"),
  ];
  await withBoard(entries, async ({ page, client }) => {
    assert.equal((await page("twin", "oz")).body.task, "task-000", "oz may read both");
    let twin = { status: 0, body: {} as Record<string, unknown> };
    const read = await commandsOf(client, async () => twin = await page("twin", "ann"));
    assert.equal(twin.status, 200);
    assert.equal(twin.body.task, "task-001", "the task ann may read");
    assert.deepEqual(
      besideTheProbe(read),
      { zrangebylex: 1, hgetall: 1 },
      "the refused task's summary is not read",
    );
    const secret = await page("secret", "ann");
    assert.equal(secret.status, 404, "a job of a refused task only");
    assert.equal(secret.body.code, "JOB_NOT_FOUND");
    assert.equal((await page("secret", "oz")).status, 200);
  });
});
