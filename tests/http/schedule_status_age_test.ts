/**
 * A schedule's last-run state on Redis is a finished job's state trusted
 * for a minute (`src/source/redis/job_state_reads.ts`): `GET /schedules`
 * says when it was read (`lastRunStatusAt`), so the page can show its age.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../helpers/checked_board.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { globalKeys } from "../../src/source/wire/keys.ts";
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
