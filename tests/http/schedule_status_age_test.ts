/**
 * A schedule's last-run state on Redis is a finished job's state trusted
 * for a minute (`src/source/redis/job_state_reads.ts`): `GET /schedules`
 * says when it was read (`lastRunStatusAt`, and `stateAt` of each run the
 * board dispatched), so the page can show its age; the memory source's
 * states are read for each answer, and say no time.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { globalKeys, taskKeys } from "../../src/source/wire/keys.ts";
import { readFixture } from "../helpers/fixture.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

Deno.test("GET /schedules says when a finished last run's state was read", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const board = createBoardOn(timers, source);
  const keys = globalKeys();
  try {
    const now = timers.now();
    const lastJobId = await writeJob(client, {
      task: "report",
      state: "completed",
      finishedOn: now,
    });
    await client.hSet(
      keys.schedules,
      "nightly",
      JSON.stringify({ task: "report", every: 60_000, lastRun: now, lastJobId }),
    );
    await client.zAdd(keys.schedulesNext, { score: now + 60_000, value: "nightly" });
    const statusAt = async () => {
      const response = await board.fetch(new Request("http://localhost/board/api/schedules"));
      const [nightly] = await response.json();
      assert.equal(nightly.lastRunStatus, "completed");
      return nightly.lastRunStatusAt;
    };

    const first = await statusAt();
    assert.ok(Math.abs(first - Date.now()) < 5_000, `read for this answer, in epoch ms: ${first}`);
    await timers.tick(40_000);
    assert.equal(await statusAt(), first, "the state read 40 s before, and said so");
    await timers.tick(25_000);
    assert.equal(await statusAt(), first + 65_000, "read again after a minute");
  } finally {
    await board.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
});

Deno.test("GET /schedules says when a finished board run's state was read; on memory, never", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = new RedisTaskSource({ url: redis.url }, timers);
  const board = createBoardOn(timers, source);
  const memory = createMemorySource({ seed: readFixture(), simulate: false });
  const live = createBoardOn(timers, memory);
  const keys = globalKeys();
  try {
    const now = timers.now();
    // A job of the task, so a run knows which version to dispatch.
    await writeJob(client, { task: "report", state: "completed", finishedOn: now });
    await client.hSet(keys.schedules, "nightly", JSON.stringify({ task: "report", every: 60_000 }));
    await client.zAdd(keys.schedulesNext, { score: now + 60_000, value: "nightly" });
    /** Runs `name` now on `on`, then the answer's first board run of it. */
    const runNow = async (on: typeof board, name: string) => {
      const trigger = await on.fetch(
        new Request(`http://board.test/board/api/schedules/${name}/trigger`, {
          method: "POST",
          headers: { origin: "http://board.test", "content-type": "application/json" },
          body: "{}",
        }),
      );
      assert.equal(trigger.status, 200, await trigger.clone().text());
      return (await trigger.json()).jobId as string;
    };
    const boardRun = async (on: typeof board, name: string) => {
      const response = await on.fetch(new Request("http://board.test/board/api/schedules"));
      const schedule = (await response.json()).find((s: { name: string }) => s.name === name);
      return schedule.boardRuns[0];
    };

    const jobId = await runNow(board, "nightly");
    await client.hSet(`${taskKeys("report").jobPrefix}${jobId}`, "state", "completed");
    const first = await boardRun(board, "nightly");
    assert.equal(first.state, "completed");
    assert.equal(typeof first.stateAt, "number", "a finished state, trusted a minute");
    await timers.tick(40_000);
    assert.equal((await boardRun(board, "nightly")).stateAt, first.stateAt, "read 40 s before");

    await runNow(live, "heartbeat");
    const kept = await boardRun(live, "heartbeat");
    assert.equal(kept.state, "waiting");
    assert.equal("stateAt" in kept, false, "the memory source's states are live");
  } finally {
    await live.close();
    await memory.close();
    await board.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
});
