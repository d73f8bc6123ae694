/**
 * The TaskSource contract: the same facts, read from the same taskora
 * keyspace, must come out of every source. `memory_contract_test.ts` and
 * `redis_contract_test.ts` run it against each one.
 */

import assert from "node:assert/strict";
import type { TaskSource } from "../../src/source/types.ts";
import {
  type Fixture as KeyspaceDump,
  FIXTURE_METRIC_MINUTE,
  FIXTURE_TASKS,
  fixtureTime,
  readFixture,
  SEND_EMAIL_STATS,
} from "../helpers/fixture.ts";

/** A source seeded with a keyspace dump, and how to tear it down. */
export interface Harness {
  source: TaskSource;
  close(): Promise<void>;
}

/** Seeds a fresh source with the dump. */
export type Seed = (dump: KeyspaceDump) => Promise<Harness>;

/** Registers one contract test, named after its title, on a source seeded for it alone. */
export type ContractTest = (
  title: string,
  body: (source: TaskSource) => Promise<void>,
  from?: KeyspaceDump,
) => void;

/**
 * The contract tests' registrar: each test named `prefix` and its title,
 * on a fresh source seeded from `from` (`dump` unless told), torn down
 * whatever the test does, so no test sees another's writes.
 */
export function seededContract(prefix: string, seed: Seed, dump: KeyspaceDump): ContractTest {
  return (title, body, from = dump) => {
    Deno.test(`${prefix}${title}`, async () => {
      const harness = await seed(from);
      try {
        await body(harness.source);
      } finally {
        await harness.close();
      }
    });
  };
}

const MINUTE = 60_000;
const T = fixtureTime(1795345700000);

function job(fields: Record<string, string>): KeyspaceDump["keys"][string] {
  return {
    type: "hash",
    pttl: -1,
    value: { _v: "1", attempt: "1", maxAttempts: "3", priority: "0", data: "{}", ...fields },
  };
}

/** A task with jobs in the queue states the fixture lacks: waiting (both kinds), delayed, retrying. */
export function withQueuedBilling(dump: KeyspaceDump): KeyspaceDump {
  const base = "taskora:{billing}";
  return {
    ...dump,
    keys: {
      ...dump.keys,
      // LPUSH w1, w2, w3: the list reads head first, workers RPOP w1 first.
      [`${base}:wait`]: { type: "list", pttl: -1, value: ["w3", "w2", "w1"] },
      [`${base}:prioritized`]: {
        type: "zset",
        pttl: -1,
        value: [
          { value: "p-high", score: -5 * 1e13 + T + 4 },
          { value: "p-low", score: -1 * 1e13 + T + 3 },
        ],
      },
      [`${base}:delayed`]: {
        type: "zset",
        pttl: -1,
        value: [{ value: "d1", score: T + 1000 }, { value: "r1", score: T + 5000 }],
      },
      [`${base}:w1`]: job({ state: "waiting", ts: String(T) }),
      [`${base}:w2`]: job({ state: "waiting", ts: String(T + 1) }),
      [`${base}:w3`]: job({ state: "waiting", ts: String(T + 2) }),
      [`${base}:p-low`]: job({ state: "waiting", ts: String(T + 3), priority: "1" }),
      [`${base}:p-high`]: job({ state: "waiting", ts: String(T + 4), priority: "5", _v: "2" }),
      [`${base}:d1`]: job({ state: "delayed", ts: String(T), delay: "1000" }),
      [`${base}:r1`]: job({
        state: "retrying",
        ts: String(T - 9000),
        attempt: "2",
        _v: "2",
        processedOn: String(T - 8000),
        error: "card declined 402",
      }),
    },
  };
}

/** A `send-email` job of {@link withLoggedJob}, which logged `line 0` to `line <n - 1>`. */
export const CHATTY_JOB = "c4a77e11-0000-4000-8000-000000000250";

/** The fixture plus {@link CHATTY_JOB}, a completed job with `lines` log entries. */
export function withLoggedJob(dump: KeyspaceDump, lines = 250): KeyspaceDump {
  const base = `taskora:{send-email}:${CHATTY_JOB}`;
  return {
    ...dump,
    keys: {
      ...dump.keys,
      [base]: job({ state: "completed", ts: String(T), finishedOn: String(T + lines) }),
      [`${base}:logs`]: {
        type: "list",
        pttl: -1,
        value: Array.from({ length: lines }, (_, i) =>
          JSON.stringify({
            level: i % 50 === 49 ? "warn" : "info",
            message: `line ${i}`,
            meta: { i, password: "hunter2" },
            timestamp: T + i,
          })),
      },
    },
  };
}

function zsetOf(dump: KeyspaceDump, key: string): Array<{ value: string; score: number }> {
  return dump.keys[key].value as Array<{ value: string; score: number }>;
}

/**
 * The dump with three `send-email` jobs failed by taskora's stall check: in
 * the failed set, with no counter: two in the counters' minute (which
 * counts 5), one in the next.
 */
function withStallFailures(dump: KeyspaceDump, minute: number): KeyspaceDump {
  const key = "taskora:{send-email}:failed";
  const failed = dump.keys[key];
  assert.ok(failed.type === "zset");
  const stalled = [minute + 59_000, minute + 59_500, minute + MINUTE + 1].map((score, i) => ({
    value: `stall-failed-${i}`,
    score,
  }));
  return {
    ...dump,
    keys: { ...dump.keys, [key]: { ...failed, value: [...failed.value, ...stalled] } },
  };
}

/** Registers the contract tests for one source. */
export function sourceContract(name: string, seed: Seed): void {
  const dump = readFixture();
  const minute = FIXTURE_METRIC_MINUTE;

  const contract = seededContract(`${name}: `, seed, dump);

  contract("discovers every task that has a key", async (source) => {
    assert.deepEqual(await source.listTasks(), FIXTURE_TASKS);
  });

  contract("counts jobs per state for many tasks at once", async (source) => {
    const stats = await source.getStats(["send-email", "resize-image", "transcode", "orphan"]);
    assert.deepEqual(stats.get("send-email"), SEND_EMAIL_STATS);
    assert.equal(stats.get("resize-image")!.delayed, 5);
    assert.equal(stats.get("resize-image")!.completed, 3);
    assert.equal(stats.get("transcode")!.active, 1);
    assert.equal(stats.get("orphan")!.expired, 1);
  });

  contract("lists finished jobs newest first, with the total", async (source) => {
    const expected = zsetOf(dump, "taskora:{send-email}:failed")
      .toSorted((a, b) => b.score - a.score || (a.value < b.value ? 1 : -1))
      .map((entry) => entry.value);
    const first = await source.listJobs("send-email", "failed", 0, 2);
    const rest = await source.listJobs("send-email", "failed", 2, 10);
    assert.equal(first.total, 5);
    assert.equal(rest.total, 5);
    assert.deepEqual([...first.jobs, ...rest.jobs].map((job) => job.id), expected);
    assert.ok(first.jobs.every((job) => job.state === "failed" && job.error !== null));
  });

  contract("lists delayed jobs by the time they run, with their run time", async (source) => {
    const expected = zsetOf(dump, "taskora:{resize-image}:delayed")
      .toSorted((a, b) => a.score - b.score || (a.value < b.value ? -1 : 1));
    const page = await source.listJobs("resize-image", "delayed", 0, 20);
    assert.equal(page.total, 5);
    assert.deepEqual(page.jobs.map((job) => job.id), expected.map((entry) => entry.value));
    assert.deepEqual(page.jobs.map((job) => job.runAt), expected.map((entry) => entry.score));
    assert.deepEqual((await source.listJobs("resize-image", "retrying", 0, 20)).jobs, []);
  });

  Deno.test(`${name}: lists waiting jobs in the order workers take them`, async () => {
    const harness = await seed(withQueuedBilling(dump));
    try {
      const { source } = harness;
      assert.ok((await source.listTasks()).includes("billing"));
      const stats = (await source.getStats(["billing"])).get("billing")!;
      assert.deepEqual([stats.waiting, stats.delayed, stats.retrying], [5, 1, 1]);
      const waiting = await source.listJobs("billing", "waiting", 0, 10);
      assert.equal(waiting.total, 5);
      assert.deepEqual(waiting.jobs.map((j) => j.id), ["w1", "w2", "w3", "p-high", "p-low"]);
      const tail = await source.listJobs("billing", "waiting", 2, 2);
      assert.deepEqual(tail.jobs.map((j) => j.id), ["w3", "p-high"]);
      const retrying = await source.listJobs("billing", "retrying", 0, 10);
      assert.equal(retrying.total, 1);
      assert.deepEqual(retrying.jobs.map((j) => [j.id, j.state, j.attempt, j.runAt]), [
        ["r1", "retrying", 2, T + 5000],
      ]);
      const delayed = await source.listJobs("billing", "delayed", 0, 10);
      assert.deepEqual(delayed.jobs.map((j) => j.id), ["d1"]);
      const spread = await source.getVersionDistribution("billing");
      assert.deepEqual(spread.queue, { "1": 4, "2": 1 });
      assert.deepEqual(spread.delayed, { "1": 1 });
      assert.deepEqual(spread.retrying, { "2": 1 });
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: counts task versions by their number, as each job's version reads`, async () => {
    const base = "taskora:{legacy}";
    const harness = await seed({
      ...dump,
      keys: {
        ...dump.keys,
        [`${base}:wait`]: { type: "list", pttl: -1, value: ["c", "b", "a"] },
        [`${base}:a`]: job({ state: "waiting", ts: String(T), _v: "02" }),
        [`${base}:b`]: job({ state: "waiting", ts: String(T + 1), _v: "2" }),
        [`${base}:c`]: job({ state: "waiting", ts: String(T + 2), _v: "v3" }),
      },
    });
    try {
      const { source } = harness;
      const waiting = await source.listJobs("legacy", "waiting", 0, 10);
      assert.deepEqual(waiting.jobs.map((j) => [j.id, j.version]), [["a", 2], ["b", 2], ["c", 1]]);
      const spread = await source.getVersionDistribution("legacy");
      assert.deepEqual(spread.queue, { "1": 1, "2": 2 });
      assert.equal(spread.latestVersion, 2);
    } finally {
      await harness.close();
    }
  });

  contract("an empty page past the end still reports the total", async (source) => {
    const page = await source.listJobs("send-email", "completed", 50, 10);
    assert.deepEqual(page.jobs, []);
    assert.equal(page.total, 10);
  });

  contract("a job of an unknown task is TASK_NOT_FOUND", async (source) => {
    await assert.rejects(
      source.listJobs("no-such-task", "waiting", 0, 10),
      (error: Error & { code?: string }) => error.code === "TASK_NOT_FOUND",
    );
  });

  contract("finds a failed job in full, logs included", async (source) => {
    const job = await source.getJob("7deea1e0-af8c-4c24-bb84-c89069ee4b0a");
    assert.ok(job);
    assert.equal(job.task, "send-email");
    assert.equal(job.state, "failed");
    assert.equal(job.attempt, 2);
    assert.equal(job.maxAttempts, 2);
    assert.equal(job.version, 1);
    assert.equal(job.error, "SMTP timeout");
    assert.deepEqual(job.progress, { step: "render", done: 2, of: 3 });
    assert.deepEqual(job.data, { to: "u0@x.io", password: "hunter2", mode: "fail", i: 0 });
    assert.equal(job.createdAt, fixtureTime(1795345687902));
    assert.equal(job.processedAt, fixtureTime(1795345687929));
    assert.equal(job.finishedAt, fixtureTime(1795345687930));
    assert.equal(job.logs.length, 2);
    assert.deepEqual(job.logs[0], {
      level: "info",
      message: "connecting",
      meta: { host: "smtp.local", apiKey: "sk-live-123", nested: { Password: "pw" } },
      timestamp: fixtureTime(1795345687904),
    });
    assert.equal(job.workflow, null);
  });

  contract("carries a job's newest 100 log lines and pages through all of them", async (source) => {
    const lines = (logs: { message: string }[]) => logs.map((log) => log.message);
    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => `line ${from + i}`);
    const job = await source.getJob(CHATTY_JOB);
    assert.equal(job?.logCount, 250);
    assert.deepEqual(lines(job!.logs), range(150, 250), "the newest 100, oldest first");
    assert.deepEqual(job!.logs[99], {
      level: "warn",
      message: "line 249",
      meta: { i: 249, password: "hunter2" },
      timestamp: T + 249,
    });

    const first = await source.getJobLogs(CHATTY_JOB, 0, 10);
    assert.equal(first?.total, 250);
    assert.deepEqual(lines(first!.logs), range(0, 10));
    assert.deepEqual(lines((await source.getJobLogs(CHATTY_JOB, 245, 10))!.logs), range(245, 250));
    assert.deepEqual(await source.getJobLogs(CHATTY_JOB, 250, 10), { logs: [], total: 250 });

    const quiet = await source.getJobLogs("a1cc1051-e5de-4ae3-babd-cdd4d73d08cc", 0, 10);
    assert.deepEqual(quiet, { logs: [], total: 0 }, "a job that logged nothing");
    const failed = await source.getJob("7deea1e0-af8c-4c24-bb84-c89069ee4b0a");
    assert.equal(failed?.logCount, 2);
    assert.equal(await source.getJobLogs("00000000-0000-0000-0000-000000000000", 0, 10), null);
    assert.equal(await source.getJobLogs("wait", 0, 10), null, "an id naming another key");
  }, withLoggedJob(dump));

  contract("reads numeric progress, workflow links and cancel requests", async (source) => {
    const transcode = await source.getJob("d8e1df37-39dd-4863-9508-f7c9bd517880");
    assert.equal(transcode?.state, "active");
    assert.equal(transcode?.progress, 10);
    const slow = await source.getJob("485336b8-640e-4fb4-8639-b47005927994");
    assert.deepEqual(slow?.workflow, { id: "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980", nodeIndex: 1 });
    assert.equal(slow?.cancelledAt, fixtureTime(1795345690444));
    assert.equal(slow?.cancelReason, "demo cancel");
    const cancelled = await source.getJob("cfa125ab-710e-4e8f-8ca0-2f1fe8870b15");
    assert.equal(cancelled?.state, "cancelled");
    assert.equal(cancelled?.cancelReason, "operator request");
    assert.equal(await source.getJob("00000000-0000-0000-0000-000000000000"), null);
  });

  contract("spreads pending jobs over task versions", async (source) => {
    const spread = await source.getVersionDistribution("resize-image");
    assert.deepEqual(spread.queue, {});
    assert.deepEqual(spread.delayed, { "1": 2, "2": 3 });
    assert.deepEqual(spread.retrying, {});
    assert.equal(spread.latestVersion, 3);
  });

  contract("lists schedules with their last run's status", async (source) => {
    const schedules = await source.listSchedules();
    assert.deepEqual(schedules.map((s) => s.name), [
      "heartbeat",
      "nightly-report",
      "weekly-cleanup",
    ]);
    const [{ lastRunStatusAt, ...heartbeat }, nightly, weekly] = schedules;
    // When the finished state was read, where a source keeps states a while (Redis: now).
    assert.ok(lastRunStatusAt === undefined || lastRunStatusAt <= Date.now());
    assert.deepEqual(heartbeat, {
      name: "heartbeat",
      config: { task: "report", every: 1000, onMissed: "skip", overlap: false },
      nextRun: fixtureTime(1795345693911),
      lastRun: fixtureTime(1795345692911),
      lastJobId: "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b",
      lastRunStatus: "completed",
      paused: false,
    });
    assert.equal(nightly.config.cron, "0 3 * * *");
    assert.deepEqual(nightly.config.data, { scope: "all" });
    assert.equal(nightly.nextRun, fixtureTime(1795402800000));
    assert.equal(nightly.lastRunStatus, null);
    assert.equal(weekly.paused, true);
    assert.equal(weekly.nextRun, null);
  });

  contract("lists workflows newest first, a page at a time", async (source) => {
    const all = await source.listWorkflows(0, 10);
    assert.equal(all.total, 4);
    assert.deepEqual(all.workflows.map((w) => w.id), [
      "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980",
      "534bef22-f368-43d6-b6cd-31868a816f0c",
      "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a",
      "05031e79-13f6-4dca-94e8-957133427217",
    ]);
    assert.deepEqual(all.workflows[0], {
      id: "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980",
      name: "chain(square → slow → notify)",
      state: "cancelled",
      createdAt: fixtureTime(1795345687939),
      nodeCount: 3,
      tasks: ["square", "slow", "notify"],
    });
    const second = await source.listWorkflows(1, 2);
    assert.equal(second.total, 4);
    assert.deepEqual(second.workflows.map((w) => w.id), all.workflows.slice(1, 3).map((w) => w.id));
  });

  contract("lists the workflows of one state, newest first", async (source) => {
    const completed = await source.listWorkflows(0, 10, "completed");
    assert.equal(completed.total, 3);
    assert.deepEqual(completed.workflows.map((w) => w.id), [
      "534bef22-f368-43d6-b6cd-31868a816f0c",
      "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a",
      "05031e79-13f6-4dca-94e8-957133427217",
    ]);
    const paged = await source.listWorkflows(2, 2, "completed");
    assert.deepEqual(paged, { workflows: [completed.workflows[2]], total: 3 });
    const cancelled = await source.listWorkflows(0, 10, "cancelled");
    assert.deepEqual(cancelled.workflows.map((w) => w.name), ["chain(square → slow → notify)"]);
    assert.deepEqual(await source.listWorkflows(0, 10, "failed"), { workflows: [], total: 0 });
  });

  contract("reads a chord's graph and every node's state and result", async (source) => {
    const chord = await source.getWorkflow("69fbb603-1f1d-4dd0-82d4-a6f176fcec3a");
    assert.ok(chord);
    assert.equal(chord.state, "completed");
    assert.equal(chord.result, 29);
    assert.deepEqual(chord.graph.terminal, [3]);
    // The graph as the source hands it over: versions as numbers, each node's own input decoded.
    assert.deepEqual(chord.graph.nodes.map((n) => [n.taskName, n._v, n.data]), [
      ["square", 1, 2],
      ["square", 1, 3],
      ["square", 1, 4],
      ["sum", 1, undefined],
    ]);
    assert.equal("data" in chord.graph.nodes[3], false, "a node without its own input has none");
    assert.deepEqual(chord.nodes.map((n) => [n.taskName, n.state, n.result]), [
      ["square", "completed", 4],
      ["square", "completed", 9],
      ["square", "completed", 16],
      ["sum", "completed", 29],
    ]);
    assert.deepEqual(chord.nodes[3].deps, [0, 1, 2]);
    assert.deepEqual(chord.nodes.map((n) => n.jobState), [
      "completed",
      "completed",
      "completed",
      "completed",
    ]);
    const cancelled = await source.getWorkflow("1c78cf3d-5b2d-4961-a5dd-6dd2224e7980");
    assert.equal(cancelled?.error, "demo cancel");
    assert.deepEqual(cancelled?.nodes.map((n) => n.state), ["completed", "cancelled", "cancelled"]);
    assert.equal(await source.getWorkflow("no-such-workflow"), null);
  });

  contract("lists and groups the dead-letter queue", async (source) => {
    const page = await source.listDeadLetters(0, 3);
    assert.equal(page.total, 5);
    assert.deepEqual(page.jobs.map((job) => job.task), ["send-email", "send-email", "send-email"]);
    const finished = page.jobs.map((job) => job.finishedAt!);
    assert.deepEqual(finished, finished.toSorted((a, b) => b - a));
    const groups = await source.groupDeadLetters();
    assert.deepEqual(groups.map((g) => [g.sample, g.count, g.tasks]), [
      ["SMTP timeout", 3, ["send-email"]],
      ["Mailbox full", 2, ["send-email"]],
    ]);
    assert.equal(groups[0].firstSeen, fixtureTime(1795345687930));
    assert.equal(groups[0].lastSeen, fixtureTime(1795345688007));
    assert.equal(groups[0].sampleJobIds.length, 3);
    assert.deepEqual(await source.groupDeadLetters("report"), []);
  });

  contract("lists the failed jobs of one error group, newest first", async (source) => {
    const group = await source.listDeadLetters(0, 10, { pattern: "Mailbox full" });
    assert.equal(group.total, 2);
    assert.deepEqual(group.jobs.map((job) => job.error), ["Mailbox full", "Mailbox full"]);
    const finished = group.jobs.map((job) => job.finishedAt!);
    assert.deepEqual(finished, finished.toSorted((a, b) => b - a));
    const second = await source.listDeadLetters(1, 1, {
      task: "send-email",
      pattern: "Mailbox full",
    });
    assert.deepEqual(second.jobs.map((job) => job.id), [group.jobs[1].id]);
    assert.equal((await source.listDeadLetters(0, 10, { pattern: "no such error" })).total, 0);
  });

  contract("sums throughput per minute over 24 hours", async (source) => {
    const day = await source.getThroughput();
    assert.equal(day.length, 1440);
    assert.equal(day[1].timestamp - day[0].timestamp, MINUTE);
    const bucket = day.find((b) => b.timestamp === minute);
    assert.deepEqual(bucket, { timestamp: minute, completed: 29, failed: 5 });
    assert.equal(day.reduce((sum, b) => sum + b.completed, 0), 29);
    // The dump's counters are 10 to 11 minutes older than the dump itself.
    const email = await source.getThroughput({ task: "send-email", count: 30 });
    assert.equal(email.length, 30);
    assert.deepEqual(email.find((b) => b.timestamp === minute), {
      timestamp: minute,
      completed: 10,
      failed: 5,
    });
  });

  contract(
    "counts failures of the failed set its minutes' counters miss (taskora's stall check)",
    async (source) => {
      const email = await source.getThroughput({ task: "send-email", count: 30 });
      const failed = (at: number) => email.find((b) => b.timestamp === at)?.failed;
      assert.equal(failed(minute), 7, "5 counted, 7 in the failed set: the more");
      assert.equal(failed(minute + MINUTE), 1, "no counter, one in the set");
      assert.equal(failed(minute + 2 * MINUTE), 0);
      const [byTask] = (await source.getThroughputByTask(["send-email"], { count: 30 })).values();
      assert.deepEqual(byTask, email);
    },
    withStallFailures(dump, minute),
  );

  contract(
    "gives each task its own throughput in one batch, zeros for an unknown task",
    async (source) => {
      const byTask = await source.getThroughputByTask(["send-email", "transcode", "nope"], {
        count: 30,
      });
      assert.deepEqual([...byTask.keys()], ["send-email", "transcode", "nope"]);
      for (const task of ["send-email", "transcode"]) {
        assert.deepEqual(byTask.get(task), await source.getThroughput({ task, count: 30 }));
      }
      assert.equal(byTask.get("send-email")!.find((b) => b.timestamp === minute)?.completed, 10);
      assert.ok(byTask.get("nope")!.every((b) => b.completed === 0 && b.failed === 0));
      assert.equal(byTask.get("nope")!.length, 30);
    },
  );

  contract("says since when each task's retrying split is exact", async (source) => {
    const stats = await source.getStats(["resize-image"]);
    assert.deepEqual([stats.get("resize-image")!.delayed, stats.get("resize-image")!.retrying], [
      5,
      0,
    ]);
    const asOf = source.retryingAsOf(["send-email", "resize-image"]);
    for (const at of asOf.values()) {
      assert.ok(typeof at === "number" && at <= Date.now(), `counted: ${at}`);
    }
  });

  contract("reports the store and a task's footprint", async (source) => {
    const info = await source.getStoreInfo();
    assert.equal(info.connected, true);
    assert.ok(info.version.length > 0);
    const storage = await source.getTaskStorage("send-email");
    assert.ok(storage.keyCount >= 18, `keyCount ${storage.keyCount}`);
    assert.ok(storage.memoryBytes > 0);
  });
}
