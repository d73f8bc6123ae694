/**
 * The memory source seeded from a real taskora keyspace answers with the
 * keyspace's facts, in the port's orders.
 */

import assert from "node:assert/strict";
import { BoardError, IncompatibleStoreError } from "../../src/errors.ts";
import {
  createMemorySource,
  importKeyspace,
  type KeyspaceDump,
  MemorySource,
  MemoryStore,
} from "../../src/source/memory/mod.ts";
import { parseKey } from "../../src/source/wire/keys.ts";
import { FIXTURE_TASKS, fixtureTime, readFixture, SEND_EMAIL_STATS } from "../helpers/fixture.ts";

const dump: KeyspaceDump = readFixture();
const NOW = dump.dumpedAt!;

function seeded(): MemorySource {
  return createMemorySource({ seed: dump, now: () => NOW });
}

/** A fresh store on a clock the test moves by hand. */
function manual() {
  const clock = { now: 1_000_000 };
  const store = new MemoryStore({ now: () => clock.now });
  return { clock, store, source: new MemorySource(store) };
}

Deno.test("importKeyspace() knows every task that has a key, sorted", async () => {
  const source = seeded();
  assert.deepEqual(await source.listTasks(), FIXTURE_TASKS);
  assert.deepEqual(await source.listTasks({ fresh: true }), await source.listTasks());
});

Deno.test("getStats() counts all eight states as the keyspace holds them", async () => {
  const stats = await seeded().getStats(["send-email", "transcode", "orphan", "resize-image"]);
  assert.deepEqual(stats.get("send-email"), SEND_EMAIL_STATS);
  assert.equal(stats.get("transcode")?.active, 1);
  assert.equal(stats.get("orphan")?.expired, 1);
  assert.equal(stats.get("resize-image")?.delayed, 5);
});

Deno.test("getStats() answers zeros for a task the store does not know", async () => {
  const stats = await seeded().getStats(["nope"]);
  assert.equal(Object.values(stats.get("nope")!).every((count) => count === 0), true);
});

Deno.test("listJobs() lists finished jobs newest first, ties as ZREVRANGE orders them", async () => {
  const page = await seeded().listJobs("send-email", "failed", 0, 10);
  assert.equal(page.total, 5);
  assert.deepEqual(page.jobs.map((job) => job.id.slice(0, 8)), [
    "9415a4c7", // 1795345688007
    "8f4aa1a3", // 1795345688007 (same score: member descending)
    "8695fc40",
    "5264f3b0",
    "7deea1e0",
  ]);
  assert.equal(page.jobs[3].error, "Mailbox full");
  assert.equal(page.jobs[3].attempt, 2);
});

Deno.test("listJobs() cuts a page and still reports the whole total", async () => {
  const page = await seeded().listJobs("send-email", "completed", 3, 4);
  assert.equal(page.total, 10);
  assert.equal(page.jobs.length, 4);
  const all = await seeded().listJobs("send-email", "completed", 0, 10);
  assert.deepEqual(page.jobs.map((job) => job.id), all.jobs.slice(3, 7).map((job) => job.id));
});

Deno.test("listJobs() lists delayed jobs by run time, with runAt set from the delayed set", async () => {
  const page = await seeded().listJobs("resize-image", "delayed", 0, 10);
  assert.equal(page.total, 5);
  const runAts = page.jobs.map((job) => job.runAt!);
  assert.deepEqual(runAts, [...runAts].sort((a, b) => a - b));
  assert.equal(runAts[0], fixtureTime(1795349287498));
  assert.equal(page.jobs[0].state, "delayed");
});

Deno.test("listJobs() lists waiting jobs as workers take them: the wait list, then by priority", async () => {
  const { clock, store, source } = manual();
  const dispatch = (id: string, priority: number) => {
    clock.now += 10;
    store.enqueue("t", { id, data: null, priority });
  };
  dispatch("a", 0);
  dispatch("b", 5);
  dispatch("c", 0);
  dispatch("d", 5);
  dispatch("e", 9);
  const page = await source.listJobs("t", "waiting", 0, 10);
  assert.deepEqual(page.jobs.map((job) => job.id), ["a", "c", "e", "b", "d"]);
  assert.equal(page.total, 5);
  assert.deepEqual((await source.listJobs("t", "waiting", 3, 10)).jobs.map((job) => job.id), [
    "b",
    "d",
  ]);
});

Deno.test("listJobs() lists active jobs in list order: the last claimed first", async () => {
  const { store, source } = manual();
  for (const id of ["a", "b", "c"]) store.enqueue("t", { id, data: null });
  // Workers take the wait list's oldest job first.
  assert.equal(store.claim("t")?.id, "a");
  assert.equal(store.claim("t")?.id, "b");
  const page = await source.listJobs("t", "active", 0, 10);
  assert.deepEqual(page.jobs.map((job) => job.id), ["b", "a"]);
  assert.equal(page.jobs[0].processedAt, 1_000_000);
});

Deno.test("retrying jobs share the delayed set but count and list apart from delayed ones", async () => {
  const { clock, store, source } = manual();
  store.enqueue("t", { id: "later", data: null, delay: 60_000 });
  store.enqueue("t", { id: "flaky", data: null, maxAttempts: 3 });
  store.claim("t");
  clock.now += 500;
  store.fail("t", "flaky", "boom 1", 2_000);

  const stats = (await source.getStats(["t"])).get("t")!;
  assert.equal(stats.delayed, 1);
  assert.equal(stats.retrying, 1);
  const retrying = await source.listJobs("t", "retrying", 0, 10);
  assert.deepEqual(retrying.jobs.map((job) => [job.id, job.attempt, job.runAt]), [
    ["flaky", 2, 1_002_500],
  ]);

  clock.now += 2_000;
  assert.deepEqual(store.promoteDue("t"), ["flaky"]);
  assert.equal((await source.getJob("flaky"))?.state, "waiting");
  assert.equal((await source.getJob("flaky"))?.runAt, null);
});

Deno.test("a task that is not there is a 404 TASK_NOT_FOUND", async () => {
  const source = seeded();
  for (
    const call of [
      () => source.listJobs("nope", "waiting", 0, 10),
      () => source.getTaskStorage("nope"),
      () => source.getVersionDistribution("nope"),
    ]
  ) {
    await assert.rejects(call, (error: unknown) => {
      assert.ok(error instanceof BoardError);
      assert.equal(error.code, "TASK_NOT_FOUND");
      assert.equal(error.status, 404);
      assert.equal(error.message, 'Task "nope" not found');
      return true;
    });
  }
});

Deno.test("getJob() finds a job in any task, with its logs and their meta kept", async () => {
  const source = seeded();
  const job = await source.getJob("48c62b3f-1bdc-4f23-9022-6690447cffbd");
  assert.equal(job?.task, "send-email");
  assert.equal(job?.state, "completed");
  assert.deepEqual(job?.data, { to: "u8@x.io", password: "hunter2", mode: "ok", i: 8 });
  assert.equal(job?.logs.length, 1);
  // Unredacted: redaction is the API layer's job.
  assert.deepEqual(job?.logs[0].meta, {
    host: "smtp.local",
    apiKey: "sk-live-123",
    nested: { Password: "pw" },
  });
  assert.equal(await source.getJob("no-such-job"), null);
});

Deno.test("getJob() links workflow nodes and keeps cancel fields", async () => {
  const source = seeded();
  const slow = await source.getJob("485336b8-640e-4fb4-8639-b47005927994");
  assert.deepEqual(slow?.workflow, { id: "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980", nodeIndex: 1 });
  assert.equal(slow?.cancelReason, "demo cancel");
  const cancelled = await source.getJob("cfa125ab-710e-4e8f-8ca0-2f1fe8870b15");
  assert.equal(cancelled?.state, "cancelled");
  assert.equal(cancelled?.cancelReason, "operator request");
});

Deno.test("getTaskStorage() counts the keys taskora holds for the task", async () => {
  const source = seeded();
  const keysPerTask = new Map<string, number>();
  for (const name of Object.keys(dump.keys)) {
    const parsed = parseKey(name);
    if (parsed?.kind === "task") {
      keysPerTask.set(parsed.task, (keysPerTask.get(parsed.task) ?? 0) + 1);
    }
  }
  for (const [task, count] of keysPerTask) {
    const storage = await source.getTaskStorage(task);
    assert.equal(storage.keyCount, count, task);
    assert.ok(storage.memoryBytes > 0);
  }
});

Deno.test("getVersionDistribution() spreads jobs still to run over `_v`", async () => {
  const versions = await seeded().getVersionDistribution("resize-image");
  assert.deepEqual(versions, {
    queue: {},
    delayed: { "1": 2, "2": 3 },
    retrying: {},
    latestVersion: 3, // from the completed v3 jobs
  });
});

Deno.test("listSchedules() sorts by name; paused means no next run; last run's job state", async () => {
  const schedules = await seeded().listSchedules();
  assert.deepEqual(schedules.map((s) => [s.name, s.paused]), [
    ["heartbeat", false],
    ["nightly-report", false],
    ["weekly-cleanup", true],
  ]);
  const [heartbeat, nightly, weekly] = schedules;
  assert.equal(heartbeat.lastRunStatus, "completed");
  assert.equal(heartbeat.lastJobId, "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b");
  assert.equal(heartbeat.config.every, 1000);
  assert.equal(nightly.config.cron, "0 3 * * *");
  assert.equal(nightly.nextRun, fixtureTime(1795402800000));
  assert.equal(nightly.lastRunStatus, null);
  assert.equal(weekly.nextRun, null);
});

Deno.test("listWorkflows() pages workflows newest first", async () => {
  const source = seeded();
  const page = await source.listWorkflows(0, 10);
  assert.equal(page.total, 4);
  assert.deepEqual(page.workflows.map((wf) => [wf.name, wf.state]), [
    ["chain(square → slow → notify)", "cancelled"],
    ["group(chain(fetch-user → render), square)", "completed"],
    ["chord(square, square, square → sum)", "completed"],
    ["chain(fetch-user → render → notify)", "completed"],
  ]);
  assert.deepEqual(page.workflows[2].tasks, ["square", "sum"]);
  const second = await source.listWorkflows(1, 2);
  assert.deepEqual(
    second.workflows.map((wf) => wf.id),
    page.workflows.slice(1, 3).map((wf) => wf.id),
  );
});

Deno.test("getWorkflow() gives the graph, node states and result", async () => {
  const source = seeded();
  const chord = await source.getWorkflow("69fbb603-1f1d-4dd0-82d4-a6f176fcec3a");
  assert.equal(chord?.result, 29);
  assert.deepEqual(chord?.graph.terminal, [3]);
  assert.deepEqual(chord?.nodes.map((node) => [node.taskName, node.state, node.result]), [
    ["square", "completed", 4],
    ["square", "completed", 9],
    ["square", "completed", 16],
    ["sum", "completed", 29],
  ]);
  const cancelled = await source.getWorkflow("1c78cf3d-5b2d-4961-a5dd-6dd2224e7980");
  assert.equal(cancelled?.error, "demo cancel");
  assert.deepEqual(cancelled?.nodes.map((node) => node.state), [
    "completed",
    "cancelled",
    "cancelled",
  ]);
  assert.equal(await source.getWorkflow("nope"), null);
});

Deno.test("listDeadLetters() lists failed jobs of every task, most recently failed first", async () => {
  const source = seeded();
  const page = await source.listDeadLetters(0, 3);
  assert.equal(page.total, 5);
  assert.deepEqual(page.jobs.map((job) => job.id.slice(0, 8)), [
    "9415a4c7",
    "8f4aa1a3",
    "8695fc40",
  ]);
  assert.equal((await source.listDeadLetters(0, 10, "report")).total, 0);
});

Deno.test("groupDeadLetters() groups failed jobs by error", async () => {
  const groups = await seeded().groupDeadLetters("send-email");
  assert.deepEqual(groups.map((group) => [group.pattern, group.count]), [
    ["SMTP timeout", 3],
    ["Mailbox full", 2],
  ]);
  assert.equal(groups[0].lastSeen, fixtureTime(1795345688007));
});

Deno.test("getThroughput() buckets per minute, oldest first, ending with the current minute", async () => {
  const source = seeded();
  const buckets = await source.getThroughput();
  assert.equal(buckets.length, 1440);
  assert.equal(buckets.at(-1)!.timestamp, Math.floor(NOW / 60_000) * 60_000);
  assert.equal(buckets[1].timestamp - buckets[0].timestamp, 60_000);
  const busy = buckets.filter((bucket) => bucket.completed + bucket.failed > 0);
  assert.deepEqual(busy, [{ timestamp: fixtureTime(1795345680000), completed: 29, failed: 5 }]);

  const sendEmail = await source.getThroughput({ task: "send-email", count: 60 });
  assert.deepEqual(sendEmail.find((bucket) => bucket.completed > 0), {
    timestamp: fixtureTime(1795345680000),
    completed: 10,
    failed: 5,
  });
  const hourly = await source.getThroughput({ bucketMs: 3_600_000, count: 2 });
  assert.equal(hourly.reduce((sum, bucket) => sum + bucket.completed, 0), 29);
});

Deno.test("getStoreInfo() reports memory the way Redis shows it, and uptime", async () => {
  const clock = { now: NOW };
  const source = createMemorySource({ seed: dump, now: () => clock.now });
  clock.now += 90_500;
  const info = await source.getStoreInfo();
  assert.equal(info.version, "memory");
  assert.equal(info.connected, true);
  assert.equal(info.uptime, 90);
  assert.match(info.usedMemory, /^\d+(\.\d\d)?[BKMG]$/);
  assert.ok(info.usedMemoryBytes > 1_000_000);
});

Deno.test("importKeyspace() refuses a keyspace in a wire format it cannot read", () => {
  const future: KeyspaceDump = {
    keys: {
      "taskora:meta": {
        type: "hash",
        pttl: -1,
        value: { wireVersion: "8", minCompat: "8", writtenBy: "taskora-wire-8" },
      },
    },
  };
  assert.throws(() => importKeyspace(future), IncompatibleStoreError);
});

Deno.test("importKeyspace() reads a keyspace written under a key prefix", async () => {
  const keys: KeyspaceDump["keys"] = {};
  for (const [name, key] of Object.entries(dump.keys)) {
    keys[name.replace(/^taskora:/, "taskora:acme:")] = key;
  }
  const source = createMemorySource({ seed: { keys }, prefix: "acme", now: () => NOW });
  assert.equal((await source.getStats(["send-email"])).get("send-email")?.failed, 5);
});

Deno.test("cancel() ends a waiting job at once and only flags an active one", async () => {
  const { store, source } = manual();
  store.enqueue("t", { id: "queued", data: null });
  store.enqueue("t", { id: "running", data: null });
  store.claim("t"); // "queued" is the oldest: it becomes active
  assert.equal(store.cancel("t", "running", "operator request"), "cancelled");
  assert.equal(store.cancel("t", "queued", "stop"), "flagged");
  assert.equal((await source.getJob("queued"))?.state, "active");
  assert.equal((await source.getJob("queued"))?.cancelledAt, 1_000_000);
  store.finishCancel("t", "queued");
  const stats = (await source.getStats(["t"])).get("t")!;
  assert.equal(stats.cancelled, 2);
  assert.equal(store.cancel("t", "queued"), "not-cancellable");
});

Deno.test("finished sets keep the newest `retention` jobs and drop the rest with their records", async () => {
  const clock = { now: 1_000_000 };
  const store = new MemoryStore({ now: () => clock.now, retention: 3 });
  const source = new MemorySource(store);
  for (let i = 0; i < 5; i++) {
    clock.now += 1_000;
    store.enqueue("t", { id: `job-${i}`, data: i });
    store.claim("t");
    store.complete("t", `job-${i}`, i * 2);
  }
  const page = await source.listJobs("t", "completed", 0, 10);
  assert.deepEqual(page.jobs.map((job) => job.id), ["job-4", "job-3", "job-2"]);
  assert.equal(await source.getJob("job-0"), null);
  // Throughput still counts every completion.
  const buckets = await source.getThroughput({ count: 1 });
  assert.equal(buckets[0].completed, 5);
});
