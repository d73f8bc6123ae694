/**
 * Workers per task with a real taskora App and real workers: the board
 * reads when a worker last took and finished a job, who holds the locks of
 * the active jobs and the fewest live workers that allows; and the health
 * verdict `noProgress` turns critical while jobs wait with no worker to
 * take them, and clears once one starts (the board's clock moved by hand).
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createTaskora, redisAdapter, waitForState, withApp } from "./harness.ts";
import { defineTask } from "../../../shared/taskora/taskora.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

Deno.test("GET /tasks/{task}/workers: last taken and finished, the live lock holders and their jobs, at least one worker", async () => {
  const releases: (() => void)[] = [];
  await withApp("redis", (app) => {
    app.task("hold", {
      concurrency: 2,
      handler: () => new Promise<string>((resolve) => releases.push(() => resolve("done"))),
    });
  }, async (world) => {
    try {
      const hold = [...world.app.getRegisteredTasks()].find((t) => t.name === "hold");
      const first = String(await hold.dispatch({}));
      await waitForState(world, first, "active");
      releases.splice(0).forEach((release) => release());
      await waitForState(world, first, "completed");
      const ids = [String(await hold.dispatch({})), String(await hold.dispatch({}))];
      for (const id of ids) await waitForState(world, id, "active");

      const { status, body } = await world.get("/tasks/hold/workers");
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.known, true);
      assert.equal(body.active, 2);
      assert.equal(body.sampled, 2);
      assert.deepEqual(body.holders.map((h: { jobId: string }) => h.jobId).sort(), [...ids].sort());
      for (const holder of body.holders) {
        assert.match(holder.token, UUID, "the worker's random token for the attempt");
        assert.ok(holder.ttlMs > 0 && holder.ttlMs <= 30_000, `ttl ${holder.ttlMs}`);
      }
      assert.equal(new Set(body.holders.map((h: { token: string }) => h.token)).size, 2);
      assert.deepEqual(body.unlocked, []);
      // Two live locks, at most two jobs per worker (the App's concurrency): at least one worker.
      assert.equal(body.estimate.atLeast, 1);
      assert.match(body.estimate.basis, /2 live locks, each worker running at most 2 at once/);
      const { lastTakenAt, lastFinishedAt, coveredSince } = body.activity;
      assert.ok(lastFinishedAt !== null && lastTakenAt >= lastFinishedAt, JSON.stringify(body));
      assert.ok(coveredSince <= lastFinishedAt);

      const missing = await world.get("/tasks/no-such-task/workers");
      assert.equal(missing.status, 404);
      assert.equal(missing.body.code, "TASK_NOT_FOUND");
    } finally {
      releases.splice(0).forEach((release) => release());
    }
  });
});

Deno.test("GET /tasks/{task}/workers on an App without Redis says it cannot know, and why", async () => {
  await withApp("memory", (app) => {
    app.task("hold", { handler: () => "done" });
  }, async (world) => {
    const { status, body } = await world.get("/tasks/hold/workers");
    assert.equal(status, 200);
    assert.equal(body.known, false);
    assert.match(body.reason, /reads no event stream and no job locks/);
  });
});

Deno.test("health noProgress: critical while jobs wait and no worker takes one for over maxIdleMs, clear once one starts", async () => {
  const redis = await startRedis();
  const app = createTaskora({ adapter: redisAdapter(redis.url) });
  app.task("work", { handler: (d: { n: number }) => d.n });
  const timers = new FakeTimers();
  // Another board leads and keeps no live state: this one's overview reads the streams itself.
  await withClient(
    redis.url,
    (client) => client.set("taskora:board:lease:board", "the-leader", { PX: 3_600_000 }),
  );
  const board = createBoardOn(timers, app, { health: { maxIdleMs: 300_000 } });
  const overview = async () => {
    const response = await board.fetch(new Request("http://localhost/board/api/overview"));
    const body = await response.json();
    return body.tasks.find((t: { name: string }) => t.name === "work");
  };
  try {
    const work = [...app.getRegisteredTasks()].find((t) => t.name === "work");
    // No worker runs: the dispatches are in the stream, no job is taken.
    for (let n = 0; n < 3; n++) await work.dispatch({ n });
    const fresh = await waitFor(async () => {
      const task = await overview();
      return task?.stats.waiting === 3 ? task : null;
    }, { what: "three jobs waiting" });
    assert.equal(fresh.health.noProgress, false, "just dispatched: not stuck yet");

    // The board's clock started before the dispatches: seven minutes on, none taken for over six.
    await timers.tick(7 * 60_000);
    const stuck = await overview();
    assert.equal(stuck.health.status, "critical");
    assert.equal(stuck.health.noProgress, true);
    assert.match(
      stuck.health.reason,
      /^3 waiting, none taken for 6 min \(over 5 min\): no worker is taking jobs$/,
    );

    await app.start();
    const moving = await waitFor(async () => {
      const task = await overview();
      return task.stats.waiting === 0 ? task : null;
    }, { what: "the worker to take the jobs" });
    assert.equal(moving.health.noProgress, false);
    assert.notEqual(moving.health.status, "critical");
  } finally {
    await board.close();
    await app.close();
    await redis.stop();
  }
});

Deno.test("GET /tasks/{task}/workers reads its time from the board's clock, as the ages it states are counted", async () => {
  const redis = await startRedis();
  const app = createTaskora({ adapter: redisAdapter(redis.url) });
  app.task("work", { handler: () => "ok" });
  const before = Date.now();
  const timers = new FakeTimers();
  const board = createBoardOn(timers, app);
  try {
    await timers.tick(7 * 60_000);
    const response = await board.fetch(
      new Request("http://localhost/board/api/tasks/work/workers"),
    );
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.ok(
      body.readAt >= before + 7 * 60_000,
      `readAt ${body.readAt} is the board's clock, seven minutes on`,
    );
  } finally {
    await board.close();
    await app.close();
    await redis.stop();
  }
});

Deno.test("a contract-only App (app.register) is not the workers' configuration: 4 jobs on one worker of concurrency 4 read 'at least 1', and the diagnosis leaves the version and singleton unknown", async () => {
  const releases: (() => void)[] = [];
  await withApp(
    "redis",
    (app) => app.register(defineTask({ name: "mail" })),
    async (world) => {
      // The workers run elsewhere, with their own options.
      const worker = createTaskora({ adapter: redisAdapter(world.url) });
      worker.task("mail", {
        concurrency: 4,
        version: 3,
        handler: () => new Promise<string>((resolve) => releases.push(() => resolve("done"))),
      });
      try {
        await worker.start();
        const mail = [...worker.getRegisteredTasks()].find((t) => t.name === "mail");
        const ids: string[] = [];
        for (let n = 0; n < 5; n++) ids.push(String(await mail.dispatch({ n })));
        for (const id of ids.slice(0, 4)) await waitForState(world, id, "active");
        const { body } = await world.get("/tasks/mail/workers");
        assert.equal(body.holders.length, 4);
        assert.equal(body.estimate.atLeast, 1, body.estimate.basis);
        assert.match(body.estimate.basis, /known only from an App that runs the task's handler/);
        const definition = (await world.get("/tasks/mail/definition")).body.definition;
        assert.deepEqual([definition.hasHandler, definition.concurrency], [false, null]);
        // A job of version 3: above the contract's 1, and run by the version-3 workers.
        const { body: diagnosis } = await world.get(`/jobs/${ids[4]}/diagnosis`);
        assert.deepEqual(diagnosis.reasons.map((r: { code: string }) => r.code), ["queue"]);
        assert.match(diagnosis.unknown[0], /registers the task as a contract only/);
      } finally {
        releases.splice(0).forEach((release) => release());
        await worker.close();
      }
    },
  );
});
