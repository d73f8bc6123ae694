/**
 * The Redis source's actions against a throwaway redis-server holding the
 * real taskora keyspace (tests/fixtures/taskora-wire6-sample.json): what
 * each one writes, key by key and field by field, and what each refuses.
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { SCHEDULE_WRITE } from "../../src/source/redis/action_scripts.ts";
import { TaskDiscovery } from "../../src/source/redis/discovery.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { checkedSource } from "../../src/source/checked.ts";
import { nextRunOf } from "../../src/source/schedule_time.ts";
import { globalKeys, taskKeys, workflowKey } from "../../src/source/wire/keys.ts";
import { fixtureTime, loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { jobCommands, type WireJob, writeJob } from "../helpers/wire_writer.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import type { Timers } from "../../src/timers.ts";
import { waitFor } from "../helpers/wait_for.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const CANCELLED_EMAIL = "cfa125ab-710e-4e8f-8ca0-2f1fe8870b15";
const COMPLETED_EMAIL = "d2d954a9-6cc5-4bb4-b341-01e347a69342";
const DELAYED_EMAIL = "5a69f8cc-4a71-423d-8cc7-3680d5198d0f";
const ACTIVE_TRANSCODE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
const COMPLETED_CHORD = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";
const UNKNOWN = "00000000-0000-0000-0000-000000000000";
const EMAIL = taskKeys("send-email");
const SCHEDULES = globalKeys();

/** Runs `fn` with a fresh server holding the fixture, a source on it and a setup client. */
async function withSource(
  fn: (ctx: { source: RedisTaskSource; client: Client; url: string }) => Promise<void>,
  options: { fixture?: boolean; timers?: Timers } = {},
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    if (options.fixture !== false) await loadFixture(client);
    // As its factory makes it: with the port's refusals (`checked.ts`). Replies get 10 s, not
    // the board's 2 s: these tests check what an action does, and under load ~30 a first
    // connection took longer ("Redis is not reachable (reconnecting)" in a test:redis run).
    const source = checkedSource(
      new RedisTaskSource({ url: redis.url, commandTimeoutMs: 10_000 }, options.timers),
    );
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

/** One raw command. */
function send<T = unknown>(client: Client, ...args: (string | number)[]): Promise<T> {
  return client.sendCommand(args.map(String)) as Promise<T>;
}

/** A hash as a record (HGETALL). */
async function hash(client: Client, key: string): Promise<Record<string, string>> {
  const flat = await send<string[]>(client, "HGETALL", key);
  const record: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) record[flat[i]] = flat[i + 1];
  return record;
}

/** The fields of the newest entry of a task's event stream. */
async function lastEvent(client: Client, task: string): Promise<Record<string, string>> {
  const [entry] = await send<[string, string[]][]>(
    client,
    "XREVRANGE",
    taskKeys(task).events,
    "+",
    "-",
    "COUNT",
    "1",
  );
  const record: Record<string, string> = {};
  for (let i = 0; i < entry[1].length; i += 2) record[entry[1][i]] = entry[1][i + 1];
  return record;
}

/** Rejects with a BoardError of `code` whose message matches. */
async function assertRefused(
  work: Promise<unknown>,
  code: string,
  message?: string | RegExp,
): Promise<void> {
  await assert.rejects(work, (error: unknown) => {
    assert.ok(error instanceof BoardError, `a BoardError, got ${error}`);
    assert.equal(error.code, code);
    if (typeof message === "string") assert.equal(error.message, message);
    else if (message) assert.match(error.message, message);
    return true;
  });
}

/** How many script calls Redis ran (EVALSHA answered with NOSCRIPT not counted). */
async function scriptCalls(client: Client): Promise<number> {
  const info = await send<string>(client, "INFO", "commandstats");
  const stats = /cmdstat_evalsha:calls=(\d+),.*failed_calls=(\d+)/.exec(info);
  return stats ? Number(stats[1]) - Number(stats[2]) : 0;
}

/** Writes many jobs, pipelined. */
async function writeJobs(client: Client, jobs: WireJob[]): Promise<string[]> {
  const written = jobs.map((job) => jobCommands(job));
  await Promise.all(written.flatMap(({ commands }) => commands.map((c) => client.sendCommand(c))));
  return written.map(({ id }) => id);
}

// ── retryJob ─────────────────────────────────────────────────────────

Deno.test("retryJob() sends a failed job back to waiting as a fresh dispatch", async () => {
  await withSource(async ({ source, client }) => {
    const before = Date.now();
    const result = await source.retryJob(FAILED_EMAIL);
    assert.deepEqual(result, {
      id: FAILED_EMAIL,
      task: "send-email",
      from: "failed",
      to: "waiting",
    });

    const job = await hash(client, `${EMAIL.jobPrefix}${FAILED_EMAIL}`);
    assert.equal(job.state, "waiting");
    assert.equal(job.attempt, "1");
    assert.ok(Number(job.ts) >= before && Number(job.ts) <= Date.now(), "a fresh ts");
    assert.equal(job.error, undefined);
    assert.equal(job.finishedOn, undefined);
    assert.equal(job.result, undefined);
    assert.equal(job.maxAttempts, "2", "the dispatch options stay");
    assert.equal(job._v, "1");
    // A clean slate, as a fresh dispatch: the last attempt's start and progress go...
    assert.equal(job.processedOn, undefined);
    assert.equal(job.progress, undefined);
    // ...its logs stay, as taskora's RETRY_DLQ leaves them.
    assert.equal(await send(client, "LLEN", `${EMAIL.jobPrefix}${FAILED_EMAIL}:logs`), 2);

    assert.equal(await send(client, "ZSCORE", EMAIL.failed, FAILED_EMAIL), null);
    assert.deepEqual(await send(client, "LRANGE", EMAIL.wait, 0, -1), [FAILED_EMAIL]);
    assert.equal(await send(client, "ZSCORE", EMAIL.marker, "0"), "0");
    assert.deepEqual(await lastEvent(client, "send-email"), {
      event: "waiting",
      jobId: FAILED_EMAIL,
    });
  });
});

Deno.test("retryJob() puts a prioritized job in the prioritized set, scored -(priority*1e13)+ts", async () => {
  await withSource(async ({ source, client }) => {
    const id = await writeJob(client, { task: "send-email", state: "failed", priority: 3 });
    await source.retryJob(id);
    const ts = Number((await hash(client, `${EMAIL.jobPrefix}${id}`)).ts);
    assert.equal(Number(await send(client, "ZSCORE", EMAIL.prioritized, id)), -3e13 + ts);
    assert.deepEqual(await send(client, "LRANGE", EMAIL.wait, 0, -1), []);
  });
});

Deno.test("retryJob() resets what would make a worker stop the new run at once", async () => {
  await withSource(async ({ source, client }) => {
    // Failed by stalling, after a cancel was asked while it ran.
    const id = await writeJob(client, { task: "send-email", state: "failed" });
    const key = `${EMAIL.jobPrefix}${id}`;
    await send(client, "HSET", key, "stalledCount", 2, "cancelledAt", 1, "cancelReason", "stop");
    await source.retryJob(id);
    const job = await hash(client, key);
    assert.equal(job.stalledCount, undefined, "a full stall budget, as a fresh dispatch");
    assert.equal(job.cancelledAt, undefined, "EXTEND_LOCK would cancel the run");
    assert.equal(job.cancelReason, undefined);
  });
});

Deno.test("retryJob() sends a cancelled job back and clears its cancel flag", async () => {
  await withSource(async ({ source, client }) => {
    const result = await source.retryJob(CANCELLED_EMAIL);
    assert.equal(result.from, "cancelled");
    const job = await hash(client, `${EMAIL.jobPrefix}${CANCELLED_EMAIL}`);
    assert.equal(job.state, "waiting");
    assert.equal(job.cancelReason, undefined);
    assert.equal(job.cancelledAt, undefined, "else a worker would cancel the new run at once");
    assert.equal(job.finishedOn, undefined);
    assert.equal(await send(client, "ZSCORE", EMAIL.cancelled, CANCELLED_EMAIL), null);
    assert.deepEqual(await send(client, "LRANGE", EMAIL.wait, 0, -1), [CANCELLED_EMAIL]);
  });
});

Deno.test("retryJob() refuses a job in another state, naming it, and an unknown id", async () => {
  await withSource(async ({ source, client }) => {
    await assertRefused(
      source.retryJob(COMPLETED_EMAIL),
      "INVALID_STATE",
      `Job ${COMPLETED_EMAIL} is completed; only failed or cancelled jobs can be retried`,
    );
    await assertRefused(
      source.retryJob(CANCELLED_EMAIL, { from: ["failed"] }),
      "INVALID_STATE",
      `Job ${CANCELLED_EMAIL} is cancelled; only failed jobs can be retried`,
    );
    await assertRefused(source.retryJob(ACTIVE_TRANSCODE), "INVALID_STATE", /is active;/);
    await assertRefused(source.retryJob(UNKNOWN), "JOB_NOT_FOUND", `Job "${UNKNOWN}" not found`);
    await assertRefused(source.retryJob("wait"), "JOB_NOT_FOUND");
    assert.equal(await send(client, "LLEN", EMAIL.wait), 0, "nothing was queued");
  });
});

Deno.test("retryJob() finds a job of a task discovered after the source listed tasks", async () => {
  const timers = new FakeTimers();
  await withSource(async ({ source, client }) => {
    await source.listTasks();
    const id = await writeJob(client, { task: "late-task", state: "failed" });
    // A miss rediscovers at most once per discovery interval (10 s by default).
    await timers.tick(9_999);
    await assertRefused(source.retryJob(id), "JOB_NOT_FOUND");
    await timers.tick(1);
    assert.equal((await source.retryJob(id)).task, "late-task");
  }, { timers });
});

Deno.test("a lookup's miss answers the tasks of a discovery that ended while it looked", async () => {
  const timers = new FakeTimers();
  await withSource(async ({ source, client }) => {
    const discovery = new TaskDiscovery(source.connection, { timers });
    try {
      const known = await discovery.list();
      await writeJob(client, { task: "late-task", state: "failed" });
      // Between the lookup over `known` and its miss, a pass (the background one) finds the task.
      await discovery.refresh();
      assert.equal(known.includes("late-task"), false);
      assert.ok((await discovery.refreshOnMiss())?.includes("late-task"), "the pass's find");
    } finally {
      await discovery.stop();
    }
  }, { timers });
});

Deno.test("two concurrent retries of one job queue it once", async () => {
  await withSource(async ({ source, client }) => {
    const [first, second] = await Promise.allSettled([
      source.retryJob(FAILED_EMAIL),
      source.retryJob(FAILED_EMAIL),
    ]);
    const outcomes = [first.status, second.status].sort();
    assert.deepEqual(outcomes, ["fulfilled", "rejected"]);
    const refused = [first, second].find((r) => r.status === "rejected") as PromiseRejectedResult;
    assert.equal(refused.reason.code, "INVALID_STATE");
    assert.match(refused.reason.message, /is waiting;/);
    assert.deepEqual(await send(client, "LRANGE", EMAIL.wait, 0, -1), [FAILED_EMAIL]);
  });
});

// ── cancelJob ────────────────────────────────────────────────────────

Deno.test("cancelJob() cancels a waiting job at once", async () => {
  await withSource(async ({ source, client }) => {
    const id = await writeJob(client, { task: "send-email", state: "waiting" });
    const before = Date.now();
    const result = await source.cancelJob(id, "not needed");
    assert.deepEqual(result, { id, task: "send-email", from: "waiting", to: "cancelled" });

    assert.deepEqual(await send(client, "LRANGE", EMAIL.wait, 0, -1), []);
    const job = await hash(client, `${EMAIL.jobPrefix}${id}`);
    assert.equal(job.state, "cancelled");
    assert.equal(job.cancelReason, "not needed");
    assert.ok(Number(job.finishedOn) >= before);
    assert.equal(job.cancelledAt, job.finishedOn);
    assert.equal(await send(client, "ZSCORE", EMAIL.cancelled, id), job.finishedOn);
    assert.deepEqual(await lastEvent(client, "send-email"), {
      event: "cancelled",
      jobId: id,
      reason: "not needed",
    });
  });
});

Deno.test("cancelJob() takes a prioritized job out of the prioritized set", async () => {
  await withSource(async ({ source, client }) => {
    const id = await writeJob(client, { task: "send-email", state: "waiting", priority: 5 });
    await source.cancelJob(id);
    assert.equal(await send(client, "ZSCORE", EMAIL.prioritized, id), null);
    const job = await hash(client, `${EMAIL.jobPrefix}${id}`);
    assert.equal(job.state, "cancelled");
    assert.equal(job.cancelReason, undefined, "no reason, no field (as taskora)");
    assert.equal((await lastEvent(client, "send-email")).reason, "");
  });
});

Deno.test("cancelJob() cancels delayed and retrying jobs out of the delayed set", async () => {
  await withSource(async ({ source, client }) => {
    const retrying = await writeJob(client, { task: "send-email", state: "retrying" });
    assert.equal((await source.cancelJob(DELAYED_EMAIL)).from, "delayed");
    assert.equal((await source.cancelJob(retrying)).from, "retrying");
    assert.equal(await send(client, "ZCARD", EMAIL.delayed), 0);
    for (const id of [DELAYED_EMAIL, retrying]) {
      assert.equal((await hash(client, `${EMAIL.jobPrefix}${id}`)).state, "cancelled");
      assert.notEqual(await send(client, "ZSCORE", EMAIL.cancelled, id), null);
    }
  });
});

Deno.test("cancelJob() of an active job flags it and tells its worker on the cancel channel", async () => {
  await withSource(async ({ source, client, url }) => {
    const subscriber = await connectClient(url);
    const heard: string[] = [];
    await subscriber.subscribe(taskKeys("transcode").cancelChannel, (message) => {
      heard.push(message);
    });
    try {
      const result = await source.cancelJob(ACTIVE_TRANSCODE, "too slow");
      assert.deepEqual(result, {
        id: ACTIVE_TRANSCODE,
        task: "transcode",
        from: "active",
        to: "cancelling",
      });
      const job = await hash(client, `${taskKeys("transcode").jobPrefix}${ACTIVE_TRANSCODE}`);
      assert.equal(job.state, "active", "the worker finishes the cancel");
      assert.ok(Number(job.cancelledAt) > 0);
      assert.equal(job.cancelReason, "too slow");
      assert.deepEqual(await send(client, "LRANGE", taskKeys("transcode").active, 0, -1), [
        ACTIVE_TRANSCODE,
      ]);
      await waitFor(() => heard.length > 0, { what: "the cancel to be published" });
      assert.deepEqual(heard, [ACTIVE_TRANSCODE]);
    } finally {
      await subscriber.close();
    }
  });
});

Deno.test("cancelJob() refuses a finished job, naming its state, and an unknown id", async () => {
  await withSource(async ({ source }) => {
    await assertRefused(
      source.cancelJob(COMPLETED_EMAIL),
      "INVALID_STATE",
      `Job ${COMPLETED_EMAIL} is completed; only waiting, delayed, retrying or active jobs can be cancelled`,
    );
    await assertRefused(source.cancelJob(FAILED_EMAIL), "INVALID_STATE", /is failed;/);
    await assertRefused(source.cancelJob(CANCELLED_EMAIL), "INVALID_STATE", /is cancelled;/);
    await assertRefused(source.cancelJob(UNKNOWN), "JOB_NOT_FOUND");
  });
});

// ── retryAllFailed ───────────────────────────────────────────────────

Deno.test("retryAllFailed({ task: task }) requeues 250 failed jobs in batches of 100, each once", async () => {
  await withSource(async ({ source, client }) => {
    const bulk = taskKeys("bulk");
    const ids = await writeJobs(
      client,
      Array.from({ length: 250 }, (_, i) => ({
        task: "bulk",
        state: "failed" as const,
        finishedOn: Date.now() - 1000 + i,
      })),
    );
    await send(client, "CONFIG", "RESETSTAT");
    assert.deepEqual(await source.retryAllFailed({ task: "bulk" }), { retried: 250 });

    assert.equal(await scriptCalls(client), 3, "three batch scripts: 100 + 100 + 50");
    assert.equal(await send(client, "ZCARD", bulk.failed), 0);
    const waiting = await send<string[]>(client, "LRANGE", bulk.wait, 0, -1);
    assert.equal(waiting.length, 250);
    assert.deepEqual([...waiting].sort(), [...ids].sort(), "every job, once");
    assert.equal(waiting.at(-1), ids[0], "the oldest failure runs first");
    const states = await Promise.all(
      ids.map((id) => send(client, "HGET", `${bulk.jobPrefix}${id}`, "state")),
    );
    assert.ok(states.every((state) => state === "waiting"));
    assert.equal(await send(client, "XLEN", bulk.events), 250 * 2 + 250, "one waiting event each");
    assert.equal(await send(client, "ZSCORE", bulk.marker, "0"), "0");
  }, { fixture: false });
});

Deno.test("retryAllFailed() covers every task, including one that appeared a moment ago", async () => {
  await withSource(async ({ source, client }) => {
    await source.listTasks();
    await writeJob(client, { task: "brand-new", state: "failed" });
    assert.deepEqual(await source.retryAllFailed(), { retried: 5 + 1 });
    assert.equal(await send(client, "ZCARD", EMAIL.failed), 0);
    assert.equal(await send(client, "LLEN", taskKeys("brand-new").wait), 1);
    assert.deepEqual(await source.retryAllFailed(), { retried: 0 });
  });
});

Deno.test("retryAllFailed() of an unknown task is TASK_NOT_FOUND", async () => {
  await withSource(async ({ source }) => {
    await assertRefused(source.retryAllFailed({ task: "nope" }), "TASK_NOT_FOUND");
  });
});

// ── cleanJobs ────────────────────────────────────────────────────────

Deno.test("cleanJobs() removes finished jobs older than the cutoff with their logs and lock", async () => {
  await withSource(async ({ source, client }) => {
    const now = Date.now();
    const old = await writeJob(client, {
      task: "tidy",
      state: "completed",
      ts: now - 7_200_000,
      finishedOn: now - 7_000_000,
    });
    const recent = await writeJob(client, { task: "tidy", state: "completed", finishedOn: now });
    const tidy = taskKeys("tidy");
    for (const id of [old, recent]) {
      await send(
        client,
        "RPUSH",
        `${tidy.jobPrefix}${id}:logs`,
        '{"level":"info","message":"hi","timestamp":1}',
      );
      await send(client, "SET", `${tidy.jobPrefix}${id}:lock`, "token");
    }

    assert.deepEqual(await source.cleanJobs("tidy", "completed", 3_600_000), { removed: 1 });
    assert.equal(await send(client, "EXISTS", `${tidy.jobPrefix}${old}`), 0);
    assert.equal(await send(client, "EXISTS", `${tidy.jobPrefix}${old}:logs`), 0);
    assert.equal(await send(client, "EXISTS", `${tidy.jobPrefix}${old}:lock`), 0);
    assert.equal(await send(client, "ZSCORE", tidy.completed, old), null);
    assert.equal(await send(client, "EXISTS", `${tidy.jobPrefix}${recent}`), 1);
    assert.equal(await send(client, "EXISTS", `${tidy.jobPrefix}${recent}:logs`), 1);

    assert.deepEqual(await source.cleanJobs("tidy", "completed", 0), { removed: 1 }, "0: all");
    assert.equal(await send(client, "ZCARD", tidy.completed), 0);
    assert.equal(await send(client, "EXISTS", `${tidy.jobPrefix}${recent}:lock`), 0);
  }, { fixture: false });
});

Deno.test("cleanJobs() works through a big set in batches of 500", async () => {
  await withSource(async ({ source, client }) => {
    await writeJobs(
      client,
      Array.from({ length: 1_200 }, () => ({ task: "tidy", state: "failed" as const })),
    );
    await send(client, "CONFIG", "RESETSTAT");
    assert.deepEqual(await source.cleanJobs("tidy", "failed", 0), { removed: 1_200 });
    assert.equal(await scriptCalls(client), 3, "500 + 500 + 200");
    assert.equal(await send(client, "ZCARD", taskKeys("tidy").failed), 0);
  }, { fixture: false });
});

Deno.test("cleanJobs() of the fixture's cancelled and expired sets; unknown task and state refused", async () => {
  await withSource(async ({ source, client }) => {
    assert.deepEqual(await source.cleanJobs("send-email", "cancelled", 0), { removed: 1 });
    assert.equal(await send(client, "EXISTS", `${EMAIL.jobPrefix}${CANCELLED_EMAIL}`), 0);
    assert.deepEqual(await source.cleanJobs("orphan", "expired", 0), { removed: 1 });
    await assertRefused(source.cleanJobs("nope", "completed", 0), "TASK_NOT_FOUND");
    await assertRefused(
      source.cleanJobs("send-email", "waiting" as "completed", 0),
      "INVALID_PARAM",
    );
  });
});

// ── schedules ────────────────────────────────────────────────────────

Deno.test("updateSchedule({ paused }) removes the next run, or sets it from now", async () => {
  await withSource(async ({ source, client }) => {
    const json = await send(client, "HGET", SCHEDULES.schedules, "heartbeat");
    const paused = await source.updateSchedule("heartbeat", { paused: true });
    assert.equal(paused.paused, true);
    assert.equal(paused.nextRun, null);
    assert.equal(await send(client, "ZSCORE", SCHEDULES.schedulesNext, "heartbeat"), null);
    assert.equal(
      await send(client, "HGET", SCHEDULES.schedules, "heartbeat"),
      json,
      "config as is",
    );

    const before = Date.now();
    const resumed = await source.updateSchedule("heartbeat", { paused: false });
    const next = Number(await send(client, "ZSCORE", SCHEDULES.schedulesNext, "heartbeat"));
    assert.ok(next >= before + 1000 && next <= Date.now() + 1000, "every 1 s, from now");
    assert.equal(resumed.nextRun, next);
    assert.equal(resumed.paused, false);
    assert.equal(resumed.lastJobId, "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b");
    assert.equal(await send(client, "HGET", SCHEDULES.schedules, "heartbeat"), json);
  });
});

Deno.test("updateSchedule({ paused: false }) of a cron schedule takes its next fire time, paused or not (as taskora)", async () => {
  await withSource(async ({ source, client }) => {
    await source.updateSchedule("nightly-report", { paused: true });
    const before = Date.now();
    const resumed = await source.updateSchedule("nightly-report", { paused: false });
    assert.equal(resumed.nextRun, nextRunOf({ cron: "0 3 * * *" }, before));
    const running = Date.now();
    await source.updateSchedule("heartbeat", { paused: false });
    const next = Number(await send(client, "ZSCORE", SCHEDULES.schedulesNext, "heartbeat"));
    assert.ok(next >= running + 1000 && next <= Date.now() + 1000, "recomputed from now");
  });
});

Deno.test("triggerSchedule() dispatches one job exactly as taskora's ENQUEUE", async () => {
  await withSource(async ({ source, client }) => {
    const jsonBefore = await send(client, "HGET", SCHEDULES.schedules, "nightly-report");
    const before = Date.now();
    const { jobId } = await source.triggerSchedule("nightly-report");
    assert.match(jobId, /^[0-9a-f-]{36}$/);

    const report = taskKeys("report");
    const job = await hash(client, `${report.jobPrefix}${jobId}`);
    assert.deepEqual(Object.keys(job), [
      "ts",
      "_v",
      "attempt",
      "maxAttempts",
      "state",
      "priority",
      "data",
    ]);
    assert.ok(Number(job.ts) >= before);
    assert.deepEqual({ ...job, ts: "" }, {
      ts: "",
      _v: "1",
      attempt: "1",
      maxAttempts: "1",
      state: "waiting",
      priority: "0",
      data: '{"scope":"all"}',
    });
    assert.deepEqual(await send(client, "LRANGE", report.wait, 0, -1), [jobId]);
    assert.equal(await send(client, "ZSCORE", report.marker, "0"), "0");
    assert.deepEqual(await lastEvent(client, "report"), { event: "waiting", jobId });
    // Like taskora's ScheduleManager.trigger: the next run and lastRun stay.
    assert.equal(
      await send(client, "ZSCORE", SCHEDULES.schedulesNext, "nightly-report"),
      String(fixtureTime(1795402800000)),
    );
    assert.equal(await send(client, "HGET", SCHEDULES.schedules, "nightly-report"), jsonBefore);
  });
});

Deno.test("triggerSchedule() stamps the task's newest version and its retry config", async () => {
  await withSource(async ({ source, client }) => {
    await send(
      client,
      "HSET",
      SCHEDULES.schedules,
      "thumbs",
      '{"task":"resize-image","every":60000}',
    );
    await send(client, "HSET", SCHEDULES.schedules, "mail", '{"task":"send-email","every":60000}');
    const thumbs = await source.triggerSchedule("thumbs");
    const mail = await source.triggerSchedule("mail");
    const thumbJob = await hash(client, `${taskKeys("resize-image").jobPrefix}${thumbs.jobId}`);
    assert.equal(thumbJob._v, "3", "resize-image has jobs of _v 1, 2 and 3");
    assert.equal(thumbJob.data, "null", "no data: null, as taskora");
    const mailJob = await hash(client, `${EMAIL.jobPrefix}${mail.jobId}`);
    assert.equal(mailJob.maxAttempts, "2", "send-email jobs may run twice");
  });
});

Deno.test("updateSchedule() merges a patch, keeps what it does not know, recomputes the next run", async () => {
  await withSource(async ({ source, client }) => {
    const stored = JSON.parse(await send(client, "HGET", SCHEDULES.schedules, "heartbeat"));
    await send(
      client,
      "HSET",
      SCHEDULES.schedules,
      "heartbeat",
      JSON.stringify({ ...stored, owner: "ops" }),
    );

    const before = Date.now();
    const record = await source.updateSchedule("heartbeat", {
      cron: "*/5 * * * *",
      timezone: "Europe/Berlin",
      data: { ping: true },
    });
    const json = JSON.parse(await send(client, "HGET", SCHEDULES.schedules, "heartbeat"));
    assert.deepEqual(json, {
      task: "report",
      overlap: false,
      onMissed: "skip",
      lastJobId: "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b",
      lastRun: fixtureTime(1795345692911),
      owner: "ops",
      cron: "*/5 * * * *",
      timezone: "Europe/Berlin",
      data: { ping: true },
    });
    const next = Number(await send(client, "ZSCORE", SCHEDULES.schedulesNext, "heartbeat"));
    assert.equal(next, nextRunOf({ cron: "*/5 * * * *", timezone: "Europe/Berlin" }, before));
    assert.equal(record.nextRun, next);
    assert.deepEqual(record.config.data, { ping: true });

    await source.updateSchedule("heartbeat", { every: 30_000 });
    const interval = JSON.parse(await send(client, "HGET", SCHEDULES.schedules, "heartbeat"));
    assert.equal(interval.every, 30_000);
    assert.equal("cron" in interval, false, "every drops cron");
    assert.equal("timezone" in interval, false, "and its time zone");

    await source.updateSchedule("nightly-report", { timezone: "Asia/Tokyo" });
    await source.updateSchedule("nightly-report", { timezone: null });
    const cron = JSON.parse(await send(client, "HGET", SCHEDULES.schedules, "nightly-report"));
    assert.equal("timezone" in cron, false, "timezone null removes it");
  });
});

Deno.test("updateSchedule() leaves a paused schedule paused and refuses invalid patches", async () => {
  await withSource(async ({ source, client }) => {
    // weekly-cleanup has no next run in the fixture: it is paused.
    const record = await source.updateSchedule("weekly-cleanup", { every: 120_000 });
    assert.equal(record.paused, true);
    assert.equal(await send(client, "ZSCORE", SCHEDULES.schedulesNext, "weekly-cleanup"), null);

    const json = await send(client, "HGET", SCHEDULES.schedules, "heartbeat");
    await assertRefused(
      source.updateSchedule("heartbeat", { cron: "not a cron" }),
      "INVALID_PARAM",
    );
    await assertRefused(
      source.updateSchedule("heartbeat", { cron: "* * * * *", timezone: "Mars/Olympus" }),
      "INVALID_PARAM",
    );
    await assertRefused(
      source.updateSchedule("heartbeat", { cron: "* * * * *", every: 5 }),
      "INVALID_PARAM",
    );
    await assertRefused(
      source.updateSchedule("heartbeat", { timezone: "UTC" }),
      "INVALID_PARAM",
      /cron/,
    );
    await assertRefused(source.updateSchedule("heartbeat", { every: -1 }), "INVALID_PARAM");
    assert.equal(
      await send(client, "HGET", SCHEDULES.schedules, "heartbeat"),
      json,
      "nothing written",
    );
  });
});

Deno.test("a schedule write refuses when the config changed since it was read", async () => {
  await withSource(async ({ source, client }) => {
    const stale = await send<string>(client, "HGET", SCHEDULES.schedules, "heartbeat");
    // The scheduler stores a new lastRun in between.
    const lastRun = String(fixtureTime(1795345692911));
    const newerRun = String(fixtureTime(1795345699999));
    const current = stale.replace(lastRun, newerRun);
    assert.notEqual(current, stale);
    await send(client, "HSET", SCHEDULES.schedules, "heartbeat", current);
    const written = await source.connection.call({
      script: SCHEDULE_WRITE,
      keys: [SCHEDULES.schedules, SCHEDULES.schedulesNext],
      args: ["heartbeat", stale, '{"task":"report","every":5}', 1, "always"],
    });
    assert.equal(written, 0, "read again");
    assert.equal(await send(client, "HGET", SCHEDULES.schedules, "heartbeat"), current);
    assert.equal(
      await send(client, "ZSCORE", SCHEDULES.schedulesNext, "heartbeat"),
      String(fixtureTime(1795345693911)),
    );
    // updateSchedule() reads again and keeps the scheduler's lastRun.
    await source.updateSchedule("heartbeat", { every: 2_000 });
    const json = JSON.parse(await send(client, "HGET", SCHEDULES.schedules, "heartbeat"));
    assert.equal(json.lastRun, Number(newerRun));
    assert.equal(json.every, 2_000);
  });
});

Deno.test("removeSchedule() deletes the config and the next run", async () => {
  await withSource(async ({ source, client }) => {
    await source.removeSchedule("heartbeat");
    assert.equal(await send(client, "HEXISTS", SCHEDULES.schedules, "heartbeat"), 0);
    assert.equal(await send(client, "ZSCORE", SCHEDULES.schedulesNext, "heartbeat"), null);
    assert.deepEqual((await source.listSchedules()).map((s) => s.name), [
      "nightly-report",
      "weekly-cleanup",
    ]);
  });
});

Deno.test("every schedule action refuses an unknown name with SCHEDULE_NOT_FOUND", async () => {
  await withSource(async ({ source }) => {
    const message = 'Schedule "nope" not found';
    await assertRefused(
      source.updateSchedule("nope", { paused: true }),
      "SCHEDULE_NOT_FOUND",
      message,
    );
    await assertRefused(
      source.updateSchedule("nope", { paused: false }),
      "SCHEDULE_NOT_FOUND",
      message,
    );
    await assertRefused(source.triggerSchedule("nope"), "SCHEDULE_NOT_FOUND", message);
    await assertRefused(
      source.updateSchedule("nope", { every: 1000 }),
      "SCHEDULE_NOT_FOUND",
      message,
    );
    await assertRefused(source.removeSchedule("nope"), "SCHEDULE_NOT_FOUND", message);
  });
});

// ── cancelWorkflow ───────────────────────────────────────────────────

/**
 * A running chord(square, square, square → sum) as taskora leaves it: root
 * node 0 done, root 1 running, root 2 waiting (roots stay `pending` in the
 * workflow hash), the sum never dispatched.
 */
async function writeRunningWorkflow(client: Client): Promise<{ id: string; jobs: string[] }> {
  const id = crypto.randomUUID();
  const jobs = [0, 1, 2, 3].map(() => crypto.randomUUID());
  const graph = {
    nodes: [
      ...[0, 1, 2].map((i) => ({
        taskName: "square",
        deps: [],
        jobId: jobs[i],
        _v: 1,
        data: `${i}`,
      })),
      { taskName: "sum", deps: [0, 1, 2], jobId: jobs[3], _v: 1 },
    ],
    terminal: [3],
    name: "chord(square, square, square → sum)",
  };
  await send(
    client,
    "HSET",
    workflowKey(id),
    "graph",
    JSON.stringify(graph),
    "state",
    "running",
    "createdAt",
    Date.now(),
    "n:0:state",
    "completed",
    "n:0:result",
    "0",
    "n:1:state",
    "pending",
    "n:2:state",
    "pending",
    "n:3:state",
    "pending",
  );
  const states = ["completed", "active", "waiting"] as const;
  for (const i of [0, 1, 2]) {
    await writeJob(client, {
      task: "square",
      id: jobs[i],
      state: states[i],
      data: i,
      workflow: { id, nodeIndex: i },
    });
  }
  return { id, jobs };
}

Deno.test("cancelWorkflow() cancels the workflow, its waiting and undispatched nodes, and signals running ones", async () => {
  await withSource(async ({ source, client, url }) => {
    const { id, jobs } = await writeRunningWorkflow(client);
    const square = taskKeys("square");
    const subscriber = await connectClient(url);
    const heard: string[] = [];
    await subscriber.subscribe(square.cancelChannel, (message) => {
      heard.push(message);
    });
    try {
      assert.deepEqual(await source.cancelWorkflow(id, "operator stop"), {
        cancelled: 2,
        signalled: 1,
      });

      const wf = await hash(client, workflowKey(id));
      assert.equal(wf.state, "cancelled");
      assert.equal(wf.error, "operator stop");
      assert.deepEqual(
        [0, 1, 2, 3].map((i) => wf[`n:${i}:state`]),
        ["completed", "cancelled", "cancelled", "cancelled"],
      );

      const done = await hash(client, `${square.jobPrefix}${jobs[0]}`);
      assert.equal(done.state, "completed", "a finished node keeps its state");
      const running = await hash(client, `${square.jobPrefix}${jobs[1]}`);
      assert.equal(running.state, "active");
      assert.equal(running.cancelReason, "operator stop");
      assert.ok(Number(running.cancelledAt) > 0);
      const waiting = await hash(client, `${square.jobPrefix}${jobs[2]}`);
      assert.equal(waiting.state, "cancelled");
      assert.equal(waiting.cancelReason, "operator stop");
      assert.notEqual(await send(client, "ZSCORE", square.cancelled, jobs[2]), null);
      assert.equal(await send(client, "LLEN", square.wait), 0);
      assert.equal(await send(client, "EXISTS", `${taskKeys("sum").jobPrefix}${jobs[3]}`), 0);

      await waitFor(() => heard.length > 0, { what: "the cancel to be published" });
      assert.deepEqual(heard, [jobs[1]]);
    } finally {
      await subscriber.close();
    }
  });
});

Deno.test("cancelWorkflow() without a reason gives node jobs taskora's default one", async () => {
  await withSource(async ({ source, client }) => {
    const { id, jobs } = await writeRunningWorkflow(client);
    await source.cancelWorkflow(id);
    assert.equal((await hash(client, workflowKey(id))).error, undefined);
    const job = await hash(client, `${taskKeys("square").jobPrefix}${jobs[2]}`);
    assert.equal(job.cancelReason, "workflow cancelled");
  });
});

Deno.test("cancelWorkflow() refuses a finished workflow, naming its state, and an unknown id", async () => {
  await withSource(async ({ source, client }) => {
    await assertRefused(
      source.cancelWorkflow(COMPLETED_CHORD),
      "INVALID_STATE",
      `Workflow ${COMPLETED_CHORD} is completed; only running workflows can be cancelled`,
    );
    const { id } = await writeRunningWorkflow(client);
    await source.cancelWorkflow(id);
    await assertRefused(source.cancelWorkflow(id), "INVALID_STATE", /is cancelled;/);
    await assertRefused(
      source.cancelWorkflow(UNKNOWN),
      "WORKFLOW_NOT_FOUND",
      `Workflow "${UNKNOWN}" not found`,
    );
  });
});
