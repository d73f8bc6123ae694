/**
 * What the Redis source writes is work a worker runs: a worker written from
 * taskora's wire format (tests/helpers/mini_worker.ts) takes the jobs the
 * board retries and triggers, and stops a job the board cancels.
 */

import assert from "node:assert/strict";
import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { MiniWorker } from "../helpers/mini_worker.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";

async function withWorld(
  fn: (ctx: { source: RedisTaskSource; client: Client; url: string }) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    await loadFixture(client);
    const source = createRedisSource({ url: redis.url });
    try {
      await fn({ source, client, url: redis.url });
    } finally {
      await source.close();
    }
  } finally {
    await client.close().catch(() => {});
    await redis.stop();
  }
}

async function withWorker(
  url: string,
  task: string,
  fn: (worker: MiniWorker) => Promise<void>,
): Promise<void> {
  const worker = await MiniWorker.start({ url, task });
  try {
    await fn(worker);
  } finally {
    await worker.stop();
  }
}

Deno.test("a failed job retried by the board is taken and completed by a worker", async () => {
  await withWorld(async ({ source, url }) => {
    const original = await source.getJob(FAILED_EMAIL);
    await source.retryJob(FAILED_EMAIL);
    await withWorker(url, "send-email", async (worker) => {
      const outcome = await worker.runOne((job) => ({ sentTo: (job.data as { to: string }).to }));
      assert.equal(outcome?.state, "completed");
      assert.equal(outcome.job.id, FAILED_EMAIL);
      assert.equal(outcome.job.attempt, 1, "a fresh first attempt");
      assert.deepEqual(outcome.job.data, original?.data);
      assert.equal(await worker.runOne(() => null), null, "and it was queued once");
    });

    const job = await source.getJob(FAILED_EMAIL);
    assert.equal(job?.state, "completed");
    assert.deepEqual(job?.result, { sentTo: (original?.data as { to: string }).to });
    assert.equal(job?.error, null);
    const [now] = await source.getThroughput({ task: "send-email", count: 1 });
    assert.equal(now.completed, 1, "the worker counted it");
  });
});

Deno.test("a schedule triggered by the board runs on its task with the schedule's data", async () => {
  await withWorld(async ({ source, url }) => {
    const heartbeat = await source.triggerSchedule("heartbeat");
    const nightly = await source.triggerSchedule("nightly-report");
    await withWorker(url, "report", async (worker) => {
      const first = await worker.runOne(() => ({ rows: 1 }));
      assert.equal(first?.job.id, heartbeat.jobId, "first dispatched, first run");
      assert.equal(first.job.data, null, "heartbeat has no data");
      assert.equal(first.job.version, 1);
      const second = await worker.runOne(() => ({ rows: 2 }));
      assert.equal(second?.job.id, nightly.jobId);
      assert.deepEqual(second.job.data, { scope: "all" });
    });
    assert.equal((await source.getJob(heartbeat.jobId))?.state, "completed");
    assert.equal((await source.getJob(nightly.jobId))?.state, "completed");
  });
});

Deno.test("an active job cancelled by the board is stopped by its worker", async () => {
  await withWorld(async ({ source, client, url }) => {
    const id = await writeJob(client, { task: "transcode", state: "waiting", data: { file: "a" } });
    await withWorker(url, "transcode", async (worker) => {
      let started!: () => void;
      const running = new Promise<void>((resolve) => started = resolve);
      const outcome = worker.runOne((_job, signal) =>
        new Promise((_, reject) => {
          started();
          signal.addEventListener("abort", () => reject(signal.reason));
        })
      );
      await running;
      const result = await source.cancelJob(id, "wrong file");
      assert.equal(result.to, "cancelling");
      assert.equal((await outcome)?.state, "cancelled");
      assert.deepEqual(worker.cancelSignals, [id], "heard on the task's cancel channel");
    });

    const job = await source.getJob(id);
    assert.equal(job?.state, "cancelled");
    assert.equal(job?.cancelReason, "wrong file");
    assert.equal(
      await client.sendCommand(["LLEN", taskKeys("transcode").active]),
      1,
      "the fixture's own",
    );
    assert.notEqual(
      await client.sendCommand(["ZSCORE", taskKeys("transcode").cancelled, id]),
      null,
    );
  });
});
