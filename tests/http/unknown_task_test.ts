/**
 * A request naming a task discovery does not know is answered from what
 * discovery knows: requests never set off one keyspace SCAN each.
 */

import assert from "node:assert/strict";
import { createBoard, createBoardOn } from "../helpers/checked_board.ts";
import { createRedisSource, RedisTaskSource } from "../../src/source/redis/mod.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** How many SCAN calls the server has answered so far. */
async function scanCalls(client: Client): Promise<number> {
  const stats = await client.sendCommand(["INFO", "commandstats"]) as string;
  return Number(/cmdstat_scan:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

Deno.test("requests for unknown tasks share at most one rate-limited rediscovery", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  await loadFixture(client);
  const board = createBoard(createRedisSource({ url: redis.url }));
  const jobsOf = async (task: string) => {
    const response = await board.fetch(
      new Request(`http://board.test/board/api/tasks/${task}/jobs`),
    );
    return { status: response.status, body: await response.json() };
  };
  try {
    assert.equal((await jobsOf("send-email")).status, 200, "discovery ran once");
    const before = await scanCalls(client);
    const concurrent = await Promise.all(
      Array.from({ length: 20 }, (_, i) => jobsOf(`no-such-task-${i}`)),
    );
    for (let i = 0; i < 20; i++) concurrent.push(await jobsOf(`still-no-task-${i}`));
    for (const { status, body } of concurrent) {
      assert.equal(status, 404);
      assert.equal(body.code, "TASK_NOT_FOUND");
    }
    // The fixture's keyspace is one SCAN call per sweep.
    const sweeps = await scanCalls(client) - before;
    assert.ok(sweeps <= 1, `40 requests for unknown tasks made ${sweeps} SCAN calls`);
  } finally {
    await board.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("a task whose first job appears after the board started is found", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  await loadFixture(client);
  const timers = new FakeTimers();
  // The board refuses an unknown task (`checked.ts`), on its clock.
  const board = createBoardOn(timers, new RedisTaskSource({ url: redis.url }, timers));
  const status = async (task: string) => {
    const response = await board.fetch(
      new Request(`http://board.test/board/api/tasks/${task}/jobs`),
    );
    await response.body?.cancel();
    return response.status;
  };
  try {
    assert.equal(await status("late-task"), 404);
    await writeJob(client, { task: "late-task", state: "waiting" });
    // A miss looks again at most once per discovery interval (10 s by default).
    await timers.tick(9_999);
    assert.equal(await status("late-task"), 404, "within the interval: no new SCAN");
    await timers.tick(1);
    assert.equal(await status("late-task"), 200);
  } finally {
    await board.close();
    await client.close();
    await redis.stop();
  }
});
