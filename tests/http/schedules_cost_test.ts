/**
 * What `GET /schedules` costs Redis per request, counted by Redis (`INFO
 * commandstats`), on a real redis-server: nothing while nothing changed (the
 * schedules, their next runs and whether the board's run history changed are
 * read through the tracking connection's cache); the run history itself only
 * when another run was recorded (by any board), and a job's state only
 * while its run is unfinished, a finished one at most once a minute. The
 * timings a request shows are worded once per change (`ScheduleTimings`);
 * `tests/bench/schedules.ts` times the route.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { globalKeys, taskKeys } from "../../src/source/wire/keys.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const SCHEDULES = 20;
const RUNS = 3;

Deno.test("GET /schedules reads the run history and finished states once per change", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const other = new RedisTaskSource({ url: redis.url }, timers);
  const board = createBoardOn(timers, source);
  const keys = globalKeys();
  const now = Date.now();
  try {
    const lastJobs: string[] = [];
    for (let i = 0; i < SCHEDULES; i++) {
      const task = `task-${i % 4}`;
      const lastJobId = await writeJob(client, { task, state: "completed", finishedOn: now });
      lastJobs.push(lastJobId);
      const timing = i % 2 === 0
        ? { cron: `${i} 4 * * *`, timezone: "Europe/Berlin" }
        : { every: 60_000 };
      await client.hSet(
        keys.schedules,
        `schedule-${i}`,
        JSON.stringify({ task, ...timing, lastRun: now, lastJobId }),
      );
      await client.zAdd(keys.schedulesNext, { score: now + 60_000, value: `schedule-${i}` });
      for (let run = 0; run < RUNS; run++) {
        const jobId = await writeJob(client, { task, state: "failed", finishedOn: now });
        await source.boardStore.recordBoardRun(`schedule-${i}`, {
          jobId,
          at: now - run,
          by: "board",
        }, 10);
      }
    }
    const list = async () => {
      const response = await board.fetch(new Request("http://localhost/board/api/schedules"));
      assert.equal(response.status, 200);
      return await response.json();
    };
    await list(); // reads everything once, and notes each schedule's last run of the scheduler
    const noted = await commandsOf(client, list); // which changed the runs: read once more
    assert.equal(noted.get("lrange"), SCHEDULES);
    assert.equal(noted.get("lpush"), undefined, "a run noted once is not noted again");
    // The schedules, their next runs and the history's version from the tracking cache: no command.
    const steady = await commandsOf(client, list);
    assert.deepEqual(Object.fromEntries(steady), {});

    // Another board records a run: the history is read again, once Redis's invalidation of the
    // version arrives (waited for), with the new run's state.
    const waiting = await writeJob(client, { task: "task-0", state: "waiting" });
    await other.boardStore.recordBoardRun("schedule-0", {
      jobId: waiting,
      at: now + 1,
      by: "board",
    }, 10);
    let shown: { name: string; boardRuns: { jobId: string; state: string | null }[] }[] = [];
    const changed = await waitFor(async () => {
      const calls = await commandsOf(client, async () => shown = await list());
      return shown.find((s) => s.name === "schedule-0")!.boardRuns.length > RUNS && calls;
    }, { what: "the other board's run to show" });
    assert.equal(changed.get("lrange"), SCHEDULES);
    assert.equal(changed.get("hget"), 1, "only the new run's state: the others are finished");
    const first = shown.find((s) => s.name === "schedule-0")!;
    assert.deepEqual(first.boardRuns[0], {
      jobId: waiting,
      at: now + 1,
      by: "board",
      state: "waiting",
    });
    assert.equal(first.boardRuns.length, RUNS + 1);

    // An unfinished run's state is read at each request; the finished ones are not.
    const unfinished = await commandsOf(client, list);
    assert.equal(totalCalls(unfinished), 1);
    assert.equal(unfinished.get("hget"), 1);

    // A finished state is read again a minute on: a job taskora removed since shows as gone.
    await client.del(`${taskKeys("task-1").jobPrefix}${lastJobs[1]}`);
    await timers.tick(60_000);
    const recheck = await commandsOf(client, async () => shown = await list());
    assert.equal(recheck.get("hget"), SCHEDULES + SCHEDULES * RUNS + 1);
    const second = shown.find((s) => s.name === "schedule-1")! as unknown as {
      lastRunStatus: string | null;
    };
    assert.equal(second.lastRunStatus, null);
  } finally {
    await board.close();
    await other.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
});
