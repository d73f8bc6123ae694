/**
 * The history recorder against a real taskora 0.5.0 worker on Redis: the
 * test plays the change feed (reads each task's events stream from where it
 * stopped) and hands the batches to the recorder, which reads each ending
 * job once and writes the history. A job failing three times keeps three
 * attempts, each with its own error, though taskora keeps only the last;
 * recording a batch again (a new leader from older ids) changes nothing.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createRedactor } from "../../src/contract/redact.ts";
import { createRecorder, type TaskEvent } from "../../src/history/recorder.ts";
import { RedisConnection } from "../../src/source/redis/client.ts";
import { readRecordedFields } from "../../src/source/redis/history_reads.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { createMemoryHistoryStore } from "../../src/store/memory/history.ts";
import { createRedisHistoryStore } from "../../src/store/redis/history/store.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";

/** A gate per attempt: the handler's attempt n runs once the test opens gate n. */
function gates() {
  const opened: (() => void)[] = [];
  const waits: Promise<void>[] = [];
  for (let i = 0; i < 10; i++) waits.push(new Promise((resolve) => opened.push(resolve)));
  return { wait: (n: number) => waits[n - 1], open: (n: number) => opened[n - 1]() };
}

/** The test's change feed: the entries of one task's events stream after the last read. */
function feed(connection: RedisConnection, task: string) {
  let last = "0-0";
  return {
    get last() {
      return last;
    },
    async next(): Promise<TaskEvent[]> {
      const reply = await connection.call<[string, string[]][]>([
        "XRANGE",
        taskKeys(task).events,
        `(${last}`,
        "+",
      ]);
      return reply.map(([id, flat]) => {
        last = id;
        const fields: Record<string, string> = {};
        for (let i = 0; i < flat.length; i += 2) fields[flat[i]] = flat[i + 1];
        return { task, id, fields };
      });
    },
  };
}

Deno.test("a job failing three times is recorded with three attempts, each with its own error", async () => {
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url });
  const app: any = createTaskora({ adapter: redisAdapter(redis.url) });
  const gate = gates();
  let tries = 0;
  const task = app.task("charge-card", {
    retry: { attempts: 3, backoff: "fixed", delay: 1 },
    handler: async () => {
      const attempt = ++tries;
      await gate.wait(attempt);
      throw new Error(`gateway timeout #${attempt}`);
    },
  });
  const store = createRedisHistoryStore({ connection });
  const recorder = createRecorder({
    store,
    read: (jobs, payloads) => readRecordedFields(connection, jobs, payloads),
  });
  const events = feed(connection, "charge-card");
  const batches: TaskEvent[][] = [];
  try {
    await connection.ready();
    await app.start();
    await task.dispatch({ amount: 5 });
    // Each attempt fails only once the previous one's end is recorded: as a feed keeping up.
    for (const [attempt, ending] of [[1, "retrying"], [2, "retrying"], [3, "failed"]] as const) {
      gate.open(attempt);
      const batch: TaskEvent[] = [];
      await waitFor(async () => {
        batch.push(...await events.next());
        return batch.some((event) => event.fields.event === ending);
      }, { what: `the ${ending} event of attempt ${attempt}` });
      batches.push(batch);
      await recorder.record(batch, { "charge-card": events.last });
    }
    const [summary] = (await store.search({ task: "charge-card" })).summaries;
    assert.ok(summary);
    assert.equal(summary.state, "failed");
    assert.deepEqual(summary.attempts.map((a) => [a.attempt, a.outcome, a.error]), [
      [1, "retrying", "gateway timeout #1"],
      [2, "retrying", "gateway timeout #2"],
      [3, "failed", "gateway timeout #3"],
    ]);
    assert.ok(summary.attempts.every((a) => a.startedAt !== null && a.startedAt <= a.endedAt));
    assert.equal(summary.errorShape, "gateway timeout #<n>");
    assert.deepEqual(await store.cursors(), { "charge-card": events.last });

    // A new leader that resumes from older ids records the same events again: nothing changes.
    const again = await recorder.record(batches.flat(), { "charge-card": events.last });
    assert.deepEqual(again, { recorded: 0 });
    assert.deepEqual((await store.search({ task: "charge-card" })).summaries, [summary]);
  } finally {
    for (let n = 1; n <= 10; n++) gate.open(n);
    await app.close();
    await connection.close();
    await redis.stop();
  }
});

Deno.test("a completed job is recorded with its version and run time; payloads only redacted, when asked", async () => {
  const redis = await startRedis();
  const connection = new RedisConnection({ url: redis.url });
  const app: any = createTaskora({ adapter: redisAdapter(redis.url) });
  const task = app.task("send-email", {
    handler: (data: any) => ({ sent: true, token: `t-${data.to}` }),
  });
  const store = createMemoryHistoryStore();
  const recorder = createRecorder({
    store,
    read: (jobs, payloads) => readRecordedFields(connection, jobs, payloads),
    redact: createRedactor(["token", "password"]),
  });
  const events = feed(connection, "send-email");
  try {
    await connection.ready();
    await app.start();
    await task.dispatch({ to: "ada@example.com", password: "hunter2" });
    const batch: TaskEvent[] = [];
    await waitFor(async () => {
      batch.push(...await events.next());
      return batch.some((event) => event.fields.event === "completed");
    }, { what: "the completed event" });
    assert.deepEqual(await recorder.record(batch, { "send-email": events.last }), { recorded: 1 });
    const [summary] = (await store.search({})).summaries;
    assert.equal(summary.state, "completed");
    assert.equal(summary.version, 1);
    assert.equal(summary.attempts.length, 1);
    assert.equal(
      summary.dataBytes,
      JSON.stringify({ to: "ada@example.com", password: "hunter2" }).length,
    );
    assert.equal(
      summary.resultBytes,
      JSON.stringify({ sent: true, token: "t-ada@example.com" }).length,
    );
    assert.ok(summary.runMs !== null && summary.runMs >= 0);
    assert.ok(summary.waitMs !== null && summary.waitMs >= 0);
    assert.deepEqual(JSON.parse(summary.data!), { to: "ada@example.com", password: "[REDACTED]" });
    assert.deepEqual(JSON.parse(summary.result!), { sent: true, token: "[REDACTED]" });
    const [hour] = await store.rollups({
      task: "send-email",
      resolution: "hour",
      from: summary.finishedAt - 3_600_000,
      to: summary.finishedAt + 1,
    });
    assert.deepEqual([hour.arrivals, hour.completed, hour.failed], [1, 1, 0]);
  } finally {
    await app.close();
    await connection.close();
    await redis.stop();
  }
});
