/**
 * `GET /schedules` writes what it shows of a schedule (presented through
 * the board's formatters, worded, as JSON) once per change of the schedule
 * or of its board runs, not at each request: counted by the calls of a
 * data formatter. What it shows stays exact and fresh: a schedule taskora
 * changed, or a run another board dispatched, shows once Redis's
 * invalidation reaches the board's tracking cache, and a user without `payload.read` never gets the data a reader was
 * shown. Schedules written and changed by a real taskora 0.5.0 App, the
 * board standalone on its Redis.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { hourlySchedulesApp } from "../helpers/hourly_schedules.ts";
import { waitFor } from "../helpers/wait_for.ts";

interface Shown {
  name: string;
  config: { data?: unknown };
  description: string | null;
  boardRuns: { jobId: string; state: string | null }[];
}

Deno.test("GET /schedules writes each schedule once per change, and shows each change once Redis invalidates it", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const app = hourlySchedulesApp(redis.url);
  const formatted: string[] = [];
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const other = new RedisTaskSource({ url: redis.url }, timers);
  const board = createBoardOn(timers, source, {
    auth: (request) => {
      const name = request.headers.get("x-user");
      return name ? { name } : undefined;
    },
    // oz reads every schedule's data, kim only hourly-1's, vic none.
    can: (user, action, target) =>
      action !== "payload.read" || user?.name === "oz" ||
      (user?.name === "kim" && target === "hourly-1"),
    formatters: {
      data: (value, task) => {
        formatted.push(task);
        return value;
      },
    },
  });
  const list = async (user: string): Promise<Shown[]> => {
    const response = await board.fetch(
      new Request("http://localhost/board/api/schedules", { headers: { "x-user": user } }),
    );
    assert.equal(response.status, 200);
    return await response.json();
  };
  try {
    await app.start();
    const first = await list("oz");
    assert.deepEqual(first.map((s) => s.config.data), [{ i: 0 }, { i: 1 }, { i: 2 }]);
    assert.equal(first[0].description, "Every hour");
    assert.equal(formatted.length, 3);
    assert.deepEqual(await list("oz"), first);
    assert.equal(formatted.length, 3, "nothing changed: nothing written again");

    // A user without payload.read: the data is left out, before any formatter sees it.
    const masked = await list("vic");
    assert.ok(masked.every((s) => !("data" in s.config)));
    assert.deepEqual(masked.map((s) => s.description), first.map((s) => s.description));
    assert.deepEqual(await list("oz"), first, "the reader's texts are kept beside");
    assert.ok((await list("vic")).every((s) => !("data" in s.config)));
    assert.equal(formatted.length, 3);
    // Each user's own answer, whoever asked just before with the same list unchanged.
    for (const user of ["kim", "oz", "kim", "vic", "kim"]) {
      const shown = (await list(user)).map((s) => "data" in s.config);
      const expected = {
        oz: [true, true, true],
        kim: [false, true, false],
        vic: [false, false, false],
      };
      assert.deepEqual(shown, expected[user as keyof typeof expected], user);
    }
    assert.equal(formatted.length, 3, "kim's texts are oz's and vic's");

    // taskora changes one schedule: that one is written again, at the next request.
    await app.schedules.update("hourly-1", { data: { i: 10 } });
    // Read through the tracking cache: shown once Redis's invalidation arrives.
    const changed = await waitFor(async () => {
      const listed = await list("oz");
      return (listed[1].config.data as { i: number }).i === 10 && listed;
    }, { what: "taskora's change to show" });
    assert.deepEqual(changed.map((s) => s.config.data), [{ i: 0 }, { i: 10 }, { i: 2 }]);
    assert.deepEqual(formatted.slice(3), ["report-1"]);

    // Another board dispatched a run of hourly-0: it shows in its job's state.
    const jobId = await writeJob(client, { task: "report-0", state: "completed" });
    await other.boardStore.recordBoardRun("hourly-0", { jobId, at: Date.now(), by: "board" }, 10);
    const withRun = await waitFor(async () => {
      const listed = await list("oz");
      return listed[0].boardRuns.length > 0 && listed;
    }, { what: "the other board's run to show" });
    assert.deepEqual(
      withRun[0].boardRuns.map(({ jobId, state }) => ({ jobId, state })),
      [{ jobId, state: "completed" }],
    );
    assert.deepEqual(formatted.slice(4), ["report-0"]);
    await list("oz");
    assert.equal(formatted.length, 5);
  } finally {
    await app.close();
    await board.close();
    await other.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
});

Deno.test("GET /schedules shows a board run's job state as it is now, at each request", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const app = hourlySchedulesApp(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const board = createBoardOn(timers, source);
  const runsOf = async (name: string): Promise<Shown["boardRuns"]> => {
    const response = await board.fetch(new Request("http://localhost/board/api/schedules"));
    assert.equal(response.status, 200);
    return ((await response.json()) as Shown[]).find((s) => s.name === name)!.boardRuns;
  };
  try {
    await app.start();
    const jobId = await writeJob(client, { task: "report-0", state: "active" });
    await source.boardStore.recordBoardRun("hourly-0", { jobId, at: Date.now(), by: "board" }, 10);
    assert.deepEqual((await runsOf("hourly-0")).map(({ state }) => state), ["active"]);
    assert.deepEqual((await runsOf("hourly-0")).map(({ state }) => state), ["active"]);
    // The job's state is no tracked key: what the list built is kept, its jobs' states are not.
    await client.hSet(`${taskKeys("report-0").jobPrefix}${jobId}`, "state", "completed");
    assert.deepEqual((await runsOf("hourly-0")).map(({ state }) => state), ["completed"]);
  } finally {
    await app.close();
    await board.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
});
