/**
 * Latency samples across board processes: two boards, each with its own
 * Redis source, on one real Redis. The board that leads reads the samples
 * from Redis and shares them; the other serves the shared sample, with the
 * leader's `readAt`, and notes the task as asked so the leader keeps it
 * fresh. Lease turns run on fake timers.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { TaskLatencyResponse } from "../../src/contract/latency.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";

const TURN_MS = 10_000 / 3;
const SHARED = "taskora:board:shared:latency:email";

async function withBoards(
  fn: (ctx: {
    latency: (board: number) => Promise<TaskLatencyResponse>;
    client: Awaited<ReturnType<typeof connectClient>>;
    timers: FakeTimers;
  }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const now = Date.now();
  for (let i = 0; i < 5; i++) {
    await writeJob(client as never, {
      task: "email",
      state: "completed",
      ts: now - 10_000,
      finishedOn: now - 4_000 + i,
    });
  }
  const sources = [0, 1].map(() => new RedisTaskSource({ url: redis.url }, timers));
  // No history: its recorder would make both boards compete from the start, and either lead.
  const boards = sources.map((source) => createBoardOn(timers, source, { history: false }));
  for (const source of sources) await source.listTasks(); // the wire check and the task list
  const latency = async (board: number) => {
    const response = await boards[board].fetch(
      new Request("http://board/board/api/tasks/email/latency"),
    );
    assert.equal(response.status, 200);
    return await response.json() as TaskLatencyResponse;
  };
  try {
    await fn({ latency, client, timers });
  } finally {
    for (const board of boards) await board.close();
    for (const source of sources) await source.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("a follower board serves the leader's latency sample, with its readAt, and reads no job", async () => {
  await withBoards(async ({ latency, client, timers }) => {
    await latency(0); // board 0 is asked first: it competes, and takes the lease
    await settle();
    await timers.tick(TURN_MS); // its turn shares what was asked
    await waitFor(() => client.get(SHARED), { what: "the leader to share its sample" });
    const led = await latency(0);
    assert.equal(led.sample.jobs, 5);
    const calls = await commandsOf(client, async () => {
      const followed = await latency(1);
      assert.deepEqual(followed.sample, led.sample, "the leader's sample, its readAt with it");
    });
    // The same request again answers from the follower's copy: what it costs is the queue's heads.
    const heads = await commandsOf(client, () => latency(1));
    assert.equal(calls.get("hmget") ?? 0, heads.get("hmget") ?? 0, "no job read by the follower");
  });
});

Deno.test("the leader keeps fresh a sample only a follower is asked for", async () => {
  await withBoards(async ({ latency, client, timers }) => {
    await latency(0);
    await settle();
    await timers.tick(TURN_MS);
    const first = await latency(1); // noted as asked
    const now = Date.now();
    await writeJob(client as never, {
      task: "email",
      state: "completed",
      ts: now - 1_000,
      finishedOn: now,
    });
    // Board 0 is not asked again: it refreshes at its turns what board 1 was asked for.
    for (let t = 0; t < 12_000; t += TURN_MS) {
      await timers.tick(TURN_MS);
      await settle();
    }
    await timers.tick(10_000); // board 1's own copy is older than maxAgeMs: it asks Redis again
    const second = await latency(1);
    assert.equal(second.sample.jobs, first.sample.jobs + 1);
    assert.ok(second.sample.readAt > first.sample.readAt);
  });
});

Deno.test("a follower with no shared sample yet reads its own, as a lone board does", async () => {
  await withBoards(async ({ latency, client }) => {
    await client.set("taskora:board:lease:board", "someone-else", { PX: 60_000 });
    const calls = await commandsOf(client, async () => {
      assert.equal((await latency(1)).sample.jobs, 5);
    });
    assert.ok((calls.get("hmget") ?? 0) > 0, "it read the jobs itself");
  });
});
