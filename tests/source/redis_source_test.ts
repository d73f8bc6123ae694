/**
 * The Redis TaskSource against a throwaway redis-server loaded with a real
 * taskora keyspace (tests/fixtures/taskora-wire6-sample.json).
 */

import assert from "node:assert/strict";
import { IncompatibleStoreError, StoreUnavailableError } from "../../src/errors.ts";
import { createRedisSource, type RedisTaskSource } from "../../src/source/redis/mod.ts";
import {
  FIXTURE_TASKS,
  fixtureTime,
  loadFixture,
  NO_JOBS,
  SEND_EMAIL_STATS,
} from "../helpers/fixture.ts";
import { connectClient, startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { withClock } from "../helpers/session_board.ts";
import { commandsRun } from "../helpers/command_stats.ts";
import { metricKey } from "../../src/source/wire/keys.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/** Runs `fn` with a fresh server holding the fixture, a source on it and a setup client. */
async function withSource(
  fn: (ctx: { source: RedisTaskSource; client: Client; redis: TestRedis }) => Promise<void>,
  options: {
    prefix?: string;
    metricsAt?: number;
    fixture?: boolean;
    commandTimeoutMs?: number;
    reconcileCommandsPerSecond?: number;
  } = {},
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    if (options.fixture !== false) await loadFixture(client, { metricsAt: options.metricsAt });
    const source = createRedisSource({
      url: redis.url,
      prefix: options.prefix,
      commandTimeoutMs: options.commandTimeoutMs,
      reconcileCommandsPerSecond: options.reconcileCommandsPerSecond,
    });
    try {
      // Connected before the test's own writes: 2,500 jobs written at once kept the event loop
      // its handshake runs on busy past the 2 s connect timeout under load, and every call then
      // failed fast while it reconnected ("Redis is not reachable (reconnecting)"). Waited for,
      // not bounded by the command timeout: under load a first connection outlasted the 300 ms
      // of the outage tests ("Redis is not reachable within 300 ms"), which is not what they test.
      await waitFor(() => answers(source.connection.ready()), { what: "the source to connect" });
      await fn({ source, client, redis });
    } finally {
      await source.close();
    }
  } finally {
    await client.close().catch(() => {});
    await redis.stop();
  }
}

Deno.test("listTasks() discovers every task that has a key", async () => {
  await withSource(async ({ source }) => {
    assert.deepEqual(await source.listTasks(), FIXTURE_TASKS);
  });
});

Deno.test("listTasks() answers the explicit `tasks` option without scanning", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url, tasks: ["b", "a"] });
  try {
    assert.deepEqual(await source.listTasks(), ["a", "b"]);
    assert.deepEqual(await source.listTasks({ fresh: true }), ["a", "b"]);
  } finally {
    await source.close();
    await redis.stop();
  }
});

Deno.test("listTasks({ fresh }) finds a task added since the last discovery", async () => {
  await withSource(async ({ source, client }) => {
    assert.equal((await source.listTasks()).includes("fresh"), false);
    await writeJob(client, { task: "fresh", state: "waiting" });
    assert.equal((await source.listTasks()).includes("fresh"), false, "served from the cache");
    assert.equal((await source.listTasks({ fresh: true })).includes("fresh"), true);
  });
});

Deno.test("getStats() counts every state of every task in the fixture", async () => {
  await withSource(async ({ source }) => {
    const stats = await source.getStats([...FIXTURE_TASKS, "no-such-task"]);
    assert.deepEqual(stats.get("send-email"), SEND_EMAIL_STATS);
    assert.deepEqual(stats.get("resize-image"), { ...NO_JOBS, delayed: 5, completed: 3 });
    assert.deepEqual(stats.get("transcode"), { ...NO_JOBS, active: 1 });
    assert.deepEqual(stats.get("slow"), { ...NO_JOBS, active: 1 });
    assert.deepEqual(stats.get("orphan"), { ...NO_JOBS, expired: 1 });
    assert.deepEqual(stats.get("report"), { ...NO_JOBS, completed: 5 });
    assert.deepEqual(stats.get("no-such-task"), NO_JOBS);
  });
});

Deno.test("after a reconcile, getStats() splits the delayed set into delayed and retrying, beyond 1,000 members", async () => {
  await withSource(async ({ source, client }) => {
    const now = Date.now();
    const writes = [];
    for (let i = 0; i < 1500; i++) {
      writes.push(writeJob(client, {
        task: "big",
        state: i % 3 === 0 ? "retrying" : "delayed",
        ts: now + i,
        runAt: now + 100_000 + i,
      }));
    }
    await Promise.all(writes);
    assert.deepEqual(source.retryingAsOf(["big"]), new Map([["big", null]]), "never counted");
    const before = Date.now();
    await source.reconcileRetrying();
    const stats = await source.getStats(["big"]);
    assert.equal(stats.get("big")?.retrying, 500);
    assert.equal(stats.get("big")?.delayed, 1000);
    assert.ok(source.retryingAsOf(["big"]).get("big")! >= before);
    // The split is what this pins, not the pace (40 commands a second: 37 s for 1,500 jobs).
  }, { fixture: false, reconcileCommandsPerSecond: 10_000 });
});

Deno.test("a bulk dry run counts delayed and retrying jobs from their hashes, whatever the kept split says", async () => {
  await withSource(async ({ source, client }) => {
    const now = Date.now();
    const writes = [];
    for (let i = 0; i < 2500; i++) {
      writes.push(writeJob(client, {
        task: "big",
        state: i % 5 === 0 ? "retrying" : "delayed",
        ts: now + i,
        runAt: now + 100_000 + i,
      }));
    }
    await Promise.all(writes);
    // Written with no event and not reconciled yet: the kept split has not counted them.
    assert.equal(source.retryingAsOf(["big"]).get("big"), null);
    assert.notEqual((await source.getStats(["big"])).get("big")?.retrying, 500);
    assert.equal(await source.countBulk("promote", { task: "big", state: "retrying" }), 500);
    assert.equal(await source.countBulk("cancel", { task: "big", state: "delayed" }), 2000);
  }, { fixture: false });
});

Deno.test("listJobs() pages finished jobs newest first, with the total", async () => {
  await withSource(async ({ source }) => {
    const page = await source.listJobs("send-email", "completed", 0, 3);
    assert.equal(page.total, 10);
    assert.equal(page.jobs.length, 3);
    const finished = page.jobs.map((job) => job.finishedAt!);
    assert.deepEqual(finished, [...finished].sort((a, b) => b - a));
    assert.equal(page.jobs[0].state, "completed");
    assert.equal(page.jobs[0].task, "send-email");

    const failed = await source.listJobs("send-email", "failed", 4, 10);
    assert.equal(failed.total, 5);
    assert.equal(failed.jobs.length, 1);
    assert.equal(failed.jobs[0].id, "7deea1e0-af8c-4c24-bb84-c89069ee4b0a", "the oldest failure");
    assert.equal(failed.jobs[0].error, "SMTP timeout");

    const expired = await source.listJobs("orphan", "expired", 0, 10);
    assert.deepEqual(expired.jobs.map((job) => job.state), ["expired"]);
    const active = await source.listJobs("transcode", "active", 0, 10);
    assert.deepEqual(active.jobs.map((job) => [job.id, job.progress]), [
      ["d8e1df37-39dd-4863-9508-f7c9bd517880", 10],
    ]);
  });
});

Deno.test("listJobs('waiting') is in run order: wait list from its tail, then by priority", async () => {
  await withSource(async ({ source, client }) => {
    const t0 = Date.now();
    const first = await writeJob(client, { task: "mail", state: "waiting", ts: t0 });
    const second = await writeJob(client, { task: "mail", state: "waiting", ts: t0 + 1 });
    const low = await writeJob(client, { task: "mail", state: "waiting", ts: t0 + 2, priority: 1 });
    const high = await writeJob(client, {
      task: "mail",
      state: "waiting",
      ts: t0 + 3,
      priority: 9,
    });
    const all = await source.listJobs("mail", "waiting", 0, 10);
    assert.equal(all.total, 4);
    assert.deepEqual(all.jobs.map((job) => job.id), [first, second, high, low]);
    assert.deepEqual(
      (await source.listJobs("mail", "waiting", 1, 2)).jobs.map((job) => job.id),
      [second, high],
    );
    assert.deepEqual(
      (await source.listJobs("mail", "waiting", 3, 5)).jobs.map((job) => job.id),
      [low],
    );
  }, { fixture: false });
});

Deno.test("listJobs() lists delayed and retrying jobs separately, by run-at time; totals from the kept split", async () => {
  await withSource(async ({ source, client }) => {
    const now = Date.now();
    const retry = await writeJob(client, {
      task: "resize-image",
      state: "retrying",
      runAt: now + 1000,
      error: "boom",
    });
    // The page is read, so it is exact at once; the total is the kept split's, as the counts say.
    const early = await source.listJobs("resize-image", "retrying", 0, 10);
    assert.deepEqual([early.jobs.map((job) => job.id), early.total], [[retry], 0]);
    await source.reconcileRetrying();
    const delayed = await source.listJobs("resize-image", "delayed", 0, 10);
    assert.equal(delayed.total, 5);
    assert.equal(delayed.jobs.length, 5);
    assert.ok(delayed.jobs.every((job) => job.state === "delayed" && job.runAt !== null));
    const runAts = delayed.jobs.map((job) => job.runAt!);
    assert.deepEqual(runAts, [...runAts].sort((a, b) => a - b));
    assert.equal(delayed.jobs[0].id, "29edcd55-6a5a-4d7f-ae0c-3919ab99f8e9");
    assert.equal(delayed.jobs[0].runAt, fixtureTime(1795349287498));

    const retrying = await source.listJobs("resize-image", "retrying", 0, 10);
    assert.equal(retrying.total, 1);
    assert.deepEqual(retrying.jobs.map((job) => [job.id, job.error, job.runAt]), [
      [retry, "boom", now + 1000],
    ]);
    const page = await source.listJobs("resize-image", "delayed", 3, 1);
    assert.equal(page.jobs[0].id, delayed.jobs[3].id);
  });
});

Deno.test("listJobs() pages deep into a delayed set that spans many chunks", async () => {
  await withSource(async ({ source, client }) => {
    const now = Date.now();
    await Promise.all(Array.from({ length: 2500 }, (_, i) =>
      writeJob(client, {
        task: "big",
        id: `job-${String(i).padStart(4, "0")}`,
        state: i % 2 === 0 ? "retrying" : "delayed",
        runAt: now + 100_000 + i,
        ts: now,
        delay: 100_000 + i,
      })));
    await source.reconcileRetrying();
    const page = await source.listJobs("big", "retrying", 1100, 3);
    assert.equal(page.total, 1250);
    assert.deepEqual(page.jobs.map((job) => job.id), ["job-2200", "job-2202", "job-2204"]);
    const last = await source.listJobs("big", "delayed", 1249, 5);
    assert.deepEqual(last.jobs.map((job) => job.id), ["job-2499"]);
  }, { fixture: false, reconcileCommandsPerSecond: 1_000_000 }); // the count is not what is tested
});

Deno.test("listJobs() of an unknown task is TASK_NOT_FOUND", async () => {
  await withSource(async ({ source }) => {
    await assert.rejects(source.listJobs("nope", "waiting", 0, 10), { code: "TASK_NOT_FOUND" });
  });
});

Deno.test("getJob() finds a job in any task, with its logs", async () => {
  await withSource(async ({ source }) => {
    const job = await source.getJob("5264f3b0-fba5-490b-906b-e0d2baf4be44");
    assert.ok(job);
    assert.equal(job.task, "send-email");
    assert.equal(job.state, "failed");
    assert.equal(job.attempt, 2);
    assert.equal(job.error, "Mailbox full");
    assert.deepEqual(job.data, { to: "u3@x.io", password: "hunter2", mode: "fail", i: 3 });
    assert.ok(job.logs.length >= 2);
    assert.equal(job.logs[0].message, "connecting");
    assert.deepEqual(job.logs[0].meta?.host, "smtp.local");

    const delayed = await source.getJob("5a69f8cc-4a71-423d-8cc7-3680d5198d0f");
    assert.equal(delayed?.runAt, fixtureTime(1795349287928));
    const wf = await source.getJob("485336b8-640e-4fb4-8639-b47005927994");
    assert.deepEqual(wf?.workflow, { id: "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980", nodeIndex: 1 });

    assert.equal(await source.getJob("no-such-job"), null);
    assert.equal(await source.getJob("wait"), null, "a key of another type is not a job");
  });
});

Deno.test("getTaskStorage() counts a task's keys and memory", async () => {
  await withSource(async ({ source }) => {
    const storage = await source.getTaskStorage("send-email");
    // 17 job hashes, 15 log lists, completed/failed/delayed/cancelled/events, 2 metric keys.
    assert.ok(storage.keyCount >= 30 && storage.keyCount <= 45, `keyCount ${storage.keyCount}`);
    assert.ok(storage.memoryBytes > 1000, `memoryBytes ${storage.memoryBytes}`);
  }, { metricsAt: Date.now() });
});

Deno.test("getVersionDistribution() counts queued, delayed and retrying jobs by _v", async () => {
  await withSource(async ({ source, client }) => {
    await writeJob(client, { task: "resize-image", state: "waiting", version: 3 });
    await writeJob(client, { task: "resize-image", state: "waiting", version: 2, priority: 4 });
    await writeJob(client, { task: "resize-image", state: "retrying", version: 2 });
    const spread = await source.getVersionDistribution("resize-image");
    assert.deepEqual(spread, {
      queue: { "2": 1, "3": 1 },
      delayed: { "1": 2, "2": 3 },
      retrying: { "2": 1 },
      latestVersion: 3,
    });
  });
});

Deno.test("listSchedules() reads every schedule with its last run's state", async () => {
  await withSource(async ({ source }) => {
    const schedules = await source.listSchedules();
    assert.deepEqual(schedules.map((s) => s.name), [
      "heartbeat",
      "nightly-report",
      "weekly-cleanup",
    ]);
    const [heartbeat, nightly, weekly] = schedules;
    assert.equal(heartbeat.lastJobId, "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b");
    assert.equal(heartbeat.lastRunStatus, "completed");
    assert.equal(heartbeat.nextRun, fixtureTime(1795345693911));
    assert.equal(heartbeat.config.every, 1000);
    assert.equal(nightly.config.cron, "0 3 * * *");
    assert.deepEqual(nightly.config.data, { scope: "all" });
    assert.equal(weekly.paused, true);
    assert.equal(weekly.lastRunStatus, null);
  });
});

Deno.test("listWorkflows() is newest first; getWorkflow() has node states", async () => {
  await withSource(async ({ source }) => {
    const page = await source.listWorkflows(0, 10);
    assert.equal(page.total, 4);
    assert.deepEqual(page.workflows.map((w) => w.id), [
      "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980",
      "534bef22-f368-43d6-b6cd-31868a816f0c",
      "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a",
      "05031e79-13f6-4dca-94e8-957133427217",
    ]);
    assert.equal(page.workflows[0].state, "cancelled");
    assert.deepEqual(page.workflows[0].tasks, ["square", "slow", "notify"]);
    assert.deepEqual(
      (await source.listWorkflows(1, 2)).workflows.map((w) => w.id),
      ["534bef22-f368-43d6-b6cd-31868a816f0c", "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a"],
    );

    const detail = await source.getWorkflow("1c78cf3d-5b2d-4961-a5dd-6dd2224e7980");
    assert.ok(detail);
    assert.deepEqual(detail.nodes.map((n) => n.state), ["completed", "cancelled", "cancelled"]);
    assert.equal(detail.nodes[0].result, 25);
    assert.equal(detail.error, "demo cancel");
    assert.equal(await source.getWorkflow("nope"), null);
  });
});

Deno.test("a state filter corrects the index when a workflow changed state behind it", async () => {
  await withSource(async ({ source, client }) => {
    const id = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";
    assert.equal((await source.listWorkflows(0, 10, "completed")).total, 3);
    // A workflow changes state outside the board, after the index read it.
    await client.hSet(`taskora:wf:{${id}}`, { state: "failed" });

    const completed = await source.listWorkflows(0, 10, "completed");
    assert.deepEqual(completed.workflows.map((w) => w.id), [
      "534bef22-f368-43d6-b6cd-31868a816f0c",
      "05031e79-13f6-4dca-94e8-957133427217",
    ], "the page skips it and fills up from the next ones");
    assert.equal(completed.total, 2);
    const failed = await source.listWorkflows(0, 10, "failed");
    assert.deepEqual(failed.workflows.map((w) => w.id), [id], "the read taught the index");
  });
});

Deno.test("listDeadLetters() merges failed jobs of all tasks, newest first", async () => {
  await withSource(async ({ source, client }) => {
    await writeJob(client, {
      task: "render",
      state: "failed",
      error: "Template 12 missing",
      finishedOn: fixtureTime(1795345687940),
    });
    const page = await source.listDeadLetters(0, 3);
    assert.equal(page.total, 6);
    assert.deepEqual(
      new Set(page.jobs.slice(0, 2).map((job) => job.id)),
      new Set([
        "8f4aa1a3-7bd2-4665-b152-989ef68e27a8",
        "9415a4c7-321b-4c7b-8608-596ec8d3bb1e",
      ]),
    );
    assert.equal(page.jobs[2].id, "8695fc40-a15e-46e5-a70f-91107a7ee88b");
    const times = (await source.listDeadLetters(0, 10)).jobs.map((job) => job.finishedAt!);
    assert.equal(times.length, 6);
    assert.deepEqual(times, [...times].sort((a, b) => b - a));
    const rest = await source.listDeadLetters(3, 10);
    assert.equal(rest.jobs.length, 3);
    const render = await source.listDeadLetters(0, 10, { task: "render" });
    assert.deepEqual(render.jobs.map((job) => job.error), ["Template 12 missing"]);
    assert.equal(render.total, 1);
  });
});

Deno.test("groupDeadLetters() groups failed jobs by error pattern", async () => {
  await withSource(async ({ source }) => {
    const groups = await source.groupDeadLetters();
    assert.deepEqual(groups.map((g) => [g.pattern, g.count, g.tasks]), [
      ["SMTP timeout", 3, ["send-email"]],
      ["Mailbox full", 2, ["send-email"]],
    ]);
    assert.equal(groups[0].sampleJobIds.length, 3);
    assert.deepEqual(await source.groupDeadLetters("send-email"), groups);
  });
});

Deno.test("getThroughput() returns minute buckets ending now, summed over tasks", async () => {
  const now = Date.now();
  // Date.now held: the minute the source calls "now" stays the one the fixture wrote, where a
  // loaded machine's reads crossed into the next one (1 run in 13).
  await withSource(({ source }) =>
    withClock(now, async () => {
      const minute = Math.floor(now / 60_000) * 60_000;
      const all = await source.getThroughput();
      assert.equal(all.length, 1440);
      assert.equal(all.at(-1)?.timestamp, minute);
      assert.equal(all[0].timestamp, minute - 1439 * 60_000);
      // 2 + 1 + 2 + 5 + 3 + 10 + 5 + 1 completed, 5 failed in the dump's one minute.
      assert.deepEqual(all.at(-1), { timestamp: minute, completed: 29, failed: 5 });
      assert.equal(all.slice(0, -1).every((b) => b.completed === 0 && b.failed === 0), true);

      const email = await source.getThroughput({ task: "send-email", count: 5 });
      assert.deepEqual(email.at(-1), { timestamp: minute, completed: 10, failed: 5 });

      const hourly = await source.getThroughput({ bucketMs: 3_600_000, count: 24 });
      assert.equal(hourly.length, 24);
      assert.equal(hourly.reduce((sum, b) => sum + b.completed, 0), 29);
    }), { metricsAt: now });
});

Deno.test("getThroughput() reads a closed minute once, and always rereads the last ones", async () => {
  const now = Date.now();
  const minute = Math.floor(now / 60_000) * 60_000;
  const old = minute - 10 * 60_000;
  // Date.now held: the last minute stays the one written, whatever the reads take.
  await withSource(({ source, client }) =>
    withClock(now, async () => {
      await client.set(metricKey("report", "completed", old), "4");
      await client.set(metricKey("report", "completed", minute), "1");
      const first = await source.getThroughput({ task: "report", count: 15 });
      assert.equal(first.find((b) => b.timestamp === old)?.completed, 4);
      await client.set(metricKey("report", "completed", old), "400");
      await client.set(metricKey("report", "completed", minute), "2");
      const second = await source.getThroughput({ task: "report", count: 15 });
      assert.equal(
        second.find((b) => b.timestamp === old)?.completed,
        4,
        "closed: served from cache",
      );
      assert.equal(second.at(-1)?.completed, 2, "the current minute is read again");
    })
  );
});

Deno.test("getStoreInfo() reports the Redis version, memory and uptime", async () => {
  await withSource(async ({ source }) => {
    const info = await source.getStoreInfo();
    assert.match(info.version, /^\d+\.\d+/);
    assert.ok(info.usedMemoryBytes > 0);
    assert.match(info.usedMemory, /[KMG]?B?$/);
    assert.equal(info.connected, true);
  });
});

Deno.test("a keyspace in an unknown wire format is refused with IncompatibleStoreError", async () => {
  await withSource(async ({ source, client }) => {
    await client.sendCommand(["HSET", "taskora:meta", "wireVersion", "99", "minCompat", "99"]);
    await assert.rejects(source.listTasks(), (error: unknown) => {
      assert.ok(error instanceof IncompatibleStoreError);
      assert.match(error.message, /99/);
      assert.match(error.message, /6/);
      return true;
    });
    await assert.rejects(source.getJob("x"), IncompatibleStoreError);
  });
});

Deno.test("the prefix option reads taskora:<prefix>:... keys only", async () => {
  await withSource(async ({ source, client }) => {
    await writeJob(client, { task: "mailer", state: "failed", error: "x" }, "app");
    await writeJob(client, { task: "other", state: "waiting" });
    assert.deepEqual(await source.listTasks(), ["mailer"]);
    assert.equal((await source.getStats(["mailer"])).get("mailer")?.failed, 1);
    assert.equal((await source.listDeadLetters(0, 10)).total, 1);
  }, { prefix: "app", fixture: false });
});

/** Whether `call` answered: false while Redis is unavailable; another error is thrown (waitFor names the last). */
async function answers(call: Promise<unknown>): Promise<boolean> {
  try {
    await call;
    return true;
  } catch (error) {
    if (error instanceof StoreUnavailableError) return false;
    throw error;
  }
}

/**
 * Once the source has answered a first `listTasks()`: under load a first
 * read (a SCAN, a wire check) can outlast a 300 ms command timeout, which is
 * not what the tests with one check.
 */
function firstAnswer(source: RedisTaskSource) {
  return waitFor(() => answers(source.listTasks()), { what: "the source's first answer" });
}

/**
 * `send-email`'s stats once the source answers again: under load the first
 * call after Redis comes back can still outlast a 300 ms command timeout.
 */
function answeredAgain(source: RedisTaskSource) {
  return waitFor(
    () =>
      source.getStats(["send-email"]).catch((error) => {
        if (error instanceof StoreUnavailableError) return null;
        throw error;
      }),
    { what: "the source to answer again" },
  );
}

Deno.test("with Redis down every method rejects with StoreUnavailableError in time, then recovers", async () => {
  await withSource(async ({ source, redis }) => {
    await firstAnswer(source);
    assert.equal((await source.listTasks()).length, 11);
    await redis.stop();
    const calls: [string, () => Promise<unknown>][] = [
      // A round trip first: it is how the client notices the server is gone.
      ["getStoreInfo", () => source.getStoreInfo()],
      ["listTasks", () => source.listTasks()],
      ["listTasks fresh", () => source.listTasks({ fresh: true })],
      ["getStats", () => source.getStats(["send-email"])],
      ["listJobs", () => source.listJobs("send-email", "failed", 0, 10)],
      ["getJob", () => source.getJob("x")],
      ["listSchedules", () => source.listSchedules()],
      ["listWorkflows", () => source.listWorkflows(0, 10)],
      ["getThroughput", () => source.getThroughput()],
    ];
    for (const [name, call] of calls) {
      // Rejects, not hangs: a call that waited for Redis would hold the test past its end.
      await assert.rejects(call(), StoreUnavailableError, name);
    }

    await redis.restart();
    await loadFixture(redis.url);
    await waitFor(() => answers(source.getStats(["send-email"])), {
      what: "the source to reconnect",
    });
    assert.equal((await answeredAgain(source)).get("send-email")?.failed, 5);
  }, { commandTimeoutMs: 300 });
});

Deno.test("a Redis that stops answering makes calls time out at commandTimeoutMs", async () => {
  await withSource(async ({ source, redis }) => {
    await firstAnswer(source);
    redis.pause();
    try {
      // The bound that fired is named in the error: the timeout, not a dropped connection.
      await assert.rejects(source.getStats(["send-email"]), (error: Error) => {
        assert.ok(error instanceof StoreUnavailableError);
        assert.match(error.message, /Redis did not answer within 300 ms/);
        return true;
      });
    } finally {
      redis.resume();
    }
    assert.equal((await answeredAgain(source)).get("send-email")?.failed, 5);
  }, { commandTimeoutMs: 300 });
});

Deno.test("a source started while Redis is down fails fast, then connects by itself", async () => {
  const redis = await startRedis();
  await redis.stop();
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 300 });
  try {
    await assert.rejects(source.listTasks(), StoreUnavailableError);
    await redis.restart();
    await loadFixture(redis.url);
    await firstAnswer(source);
    assert.equal((await source.listTasks()).length, 11);
  } finally {
    await source.close();
    await redis.stop();
  }
});

Deno.test("close() leaves no timers or connections behind", async () => {
  const redis = await startRedis();
  try {
    await loadFixture(redis.url);
    const source = createRedisSource({ url: redis.url, discoveryIntervalMs: 20 });
    await source.listTasks();
    await source.listWorkflows(0, 1);
    await source.groupDeadLetters();
    // Closed in the middle of its background passes: a few more discovery SCANs have run.
    const counter = await connectClient(redis.url);
    const scans = async () => (await commandsRun(counter)).get("scan") ?? 0;
    const first = await scans();
    await waitFor(async () => await scans() >= first + 3, { what: "three more discovery scans" });
    await counter.close();
    await source.close();
  } finally {
    await redis.stop();
  }
});

Deno.test("a client passed in is used and left open by close()", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    await loadFixture(client);
    const source = createRedisSource({ client });
    assert.equal((await source.listTasks()).length, 11);
    await source.close();
    assert.equal(await client.sendCommand(["PING"]), "PONG");
  } finally {
    await client.close();
    await redis.stop();
  }
});
