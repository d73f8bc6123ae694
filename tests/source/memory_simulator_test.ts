/**
 * The workload simulator behaves like a small taskora deployment. Runs are
 * seeded and driven by calling `tick()` on a fake clock, so they are fast and
 * repeatable.
 */

import assert from "node:assert/strict";
import {
  createMemorySource,
  MemorySource,
  MemoryStore,
  Simulator,
  type StoreEvent,
} from "../../src/source/memory/mod.ts";
import { JOB_STATES, type JobState } from "../../src/source/types.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";

const START = Date.UTC(2026, 10, 23, 12, 0, 0);
const TICK = 250;

interface Run {
  source: MemorySource;
  clock: { now: number };
  events: StoreEvent[];
  /** States seen with a non-zero count after some tick. */
  seen: Set<JobState>;
  /** Workflow id → every state it was seen in. */
  workflowStates: Map<string, Set<string>>;
}

/** A seeded source advanced by `ticks` ticks of 250 ms. */
async function simulate(ticks: number, seed = 7): Promise<Run> {
  const clock = { now: START };
  const source = createMemorySource({
    simulate: { random: seed, tickMs: 0 },
    now: () => clock.now,
  });
  const events: StoreEvent[] = [];
  source.store.subscribe((event) => events.push(event));
  const seen = new Set<JobState>();
  const workflowStates = new Map<string, Set<string>>();
  for (let i = 0; i < ticks; i++) {
    clock.now += TICK;
    source.simulator!.tick();
    if (i % 10 !== 0) continue;
    const tasks = await source.listTasks();
    for (const stats of (await source.getStats(tasks)).values()) {
      for (const state of JOB_STATES) if (stats[state] > 0) seen.add(state);
    }
    for (const workflow of (await source.listWorkflows(0, 100)).workflows) {
      const states = workflowStates.get(workflow.id) ?? new Set();
      states.add(workflow.state);
      workflowStates.set(workflow.id, states);
    }
  }
  return { source, clock, events, seen, workflowStates };
}

const run = await simulate(400);

Deno.test("the simulator runs six tasks with jobs in every one of the eight states", async () => {
  assert.deepEqual(await run.source.listTasks(), [
    "generate-report",
    "notify-user",
    "resize-image",
    "send-email",
    "sync-inventory",
    "transcode-video",
  ]);
  assert.deepEqual([...run.seen].sort(), [...JOB_STATES].sort());
});

Deno.test("failed attempts are retried with backoff before they fail for good", async () => {
  const retries = run.events.filter((event) => event.event === "retrying");
  assert.ok(retries.length >= 5, `only ${retries.length} retries`);
  const retry = retries[0];
  assert.ok(Number(retry.fields.nextAttemptAt) > retry.at);
  assert.ok(Number(retry.fields.attempt) >= 2);

  const failed = await run.source.listDeadLetters(0, 500);
  assert.ok(failed.total > 10);
  for (const job of failed.jobs) {
    assert.equal(job.attempt, job.maxAttempts, `${job.id} failed before its last attempt`);
    assert.ok(job.error);
  }
});

Deno.test("permanent failures fall into several error groups of varying messages", async () => {
  const groups = await run.source.groupDeadLetters();
  assert.ok(groups.length >= 6, `only ${groups.length} groups`);
  const varied = groups.filter((group) => group.count > 1 && group.pattern !== group.sample);
  assert.ok(varied.length >= 3, "groups should gather messages that differ in numbers or ids");
  assert.ok(groups.some((group) => group.pattern === "SMTP timeout after <n> ms"));
});

Deno.test("jobs carry several task versions, and queues show the spread", async () => {
  const email = await run.source.getVersionDistribution("send-email");
  assert.equal(email.latestVersion, 3);
  const versions = new Set<number>();
  for (const state of ["completed", "failed"] as const) {
    for (const job of (await run.source.listJobs("send-email", state, 0, 500)).jobs) {
      versions.add(job.version);
    }
  }
  assert.deepEqual([...versions].sort(), [1, 2, 3]);
  assert.equal((await run.source.getVersionDistribution("resize-image")).latestVersion, 3);
});

Deno.test("workflows of every shape start, run their node jobs and finish", async () => {
  const { workflows } = await run.source.listWorkflows(0, 100);
  const names = new Set(workflows.map((workflow) => workflow.name!.split("(")[0]));
  assert.deepEqual([...names].sort(), ["chain", "chord", "group"]);
  // Seen running, later finished.
  const progressed = [...run.workflowStates.values()].filter((states) =>
    states.has("running") && (states.has("completed") || states.has("failed"))
  );
  assert.ok(progressed.length >= 4, `only ${progressed.length} workflows progressed`);

  const chord = workflows.find((workflow) =>
    workflow.name?.startsWith("chord(") && workflow.state === "completed"
  );
  assert.ok(chord, "a chord completed");
  const detail = (await run.source.getWorkflow(chord.id))!;
  assert.ok(detail.nodes.every((node) => node.state === "completed"));
  // The chord's last node got the results of the three before it, and its result is the workflow's.
  const last = detail.nodes.at(-1)!;
  const job = (await run.source.getJob(last.jobId))!;
  assert.deepEqual(job.data, detail.nodes.slice(0, 3).map((node) => node.result));
  assert.deepEqual(job.workflow, { id: chord.id, nodeIndex: 3 });
  assert.deepEqual(detail.result, last.result);
});

Deno.test("jobs report progress as numbers and objects, and log meta with secrets", async () => {
  const progress = run.events.filter((event) => event.event === "progress")
    .map((event) => JSON.parse(event.fields.value));
  assert.ok(progress.some((value) => typeof value === "number"));
  assert.ok(progress.some((value) => typeof value === "object" && "stage" in value));

  const [email] = (await run.source.listJobs("send-email", "completed", 0, 1)).jobs;
  const detail = (await run.source.getJob(email.id))!;
  assert.ok(detail.logs.length >= 2);
  assert.equal(typeof detail.logs[0].meta?.apiKey, "string");
});

Deno.test("jobs get cancelled and expire past their TTL", () => {
  const kinds = new Set(run.events.map((event) => event.event));
  for (
    const kind of ["waiting", "delayed", "active", "completed", "failed", "cancelled", "expired"]
  ) {
    assert.ok(kinds.has(kind), `no ${kind} event`);
  }
});

Deno.test("schedules fire: every, cron, and one paused", async () => {
  const schedules = await run.source.listSchedules();
  assert.deepEqual(schedules.map((s) => [s.name, s.paused]), [
    ["hourly-digest", false],
    ["inventory-sync", false],
    ["nightly-report", false],
    ["weekly-cleanup", true],
  ]);
  const every = schedules.find((s) => s.name === "inventory-sync")!;
  // Run for 100 s: the 2-minute schedule (last run 80 s before start) fired once.
  assert.ok(every.lastRun! > START);
  assert.equal(every.nextRun, every.lastRun! + 120_000);
  assert.ok(every.lastRunStatus !== null);
  const cron = schedules.find((s) => s.name === "nightly-report")!;
  assert.equal(new Date(cron.nextRun!).getUTCHours(), 3);
  assert.equal(cron.lastRunStatus, "completed");
});

Deno.test("a day of throughput history is there from the start", async () => {
  const buckets = await run.source.getThroughput();
  assert.equal(buckets.length, 1440);
  const busy = buckets.filter((bucket) => bucket.completed > 0);
  assert.ok(busy.length > 1400, `only ${busy.length} busy minutes`);
  assert.ok(buckets.some((bucket) => bucket.failed > 0));
});

Deno.test("the same seed gives the same run", async () => {
  const a = await simulate(60, 99);
  const b = await simulate(60, 99);
  const snapshot = async (source: MemorySource) => ({
    stats: [...(await source.getStats(await source.listTasks())).entries()],
    failed: (await source.listDeadLetters(0, 20)).jobs.map((job) => [job.id, job.error]),
  });
  assert.deepEqual(await snapshot(a.source), await snapshot(b.source));
});

Deno.test("finished sets stay bounded by the retention", async () => {
  const clock = { now: START };
  const source = createMemorySource({
    simulate: { random: 3, tickMs: 0 },
    now: () => clock.now,
    retention: 40,
  });
  for (let i = 0; i < 400; i++) {
    clock.now += TICK;
    source.simulator!.tick();
  }
  for (const stats of (await source.getStats(await source.listTasks())).values()) {
    assert.ok(stats.completed <= 40);
  }
});

Deno.test("the simulator's timer ticks every tickMs, and close() stops it", async () => {
  const timers = new FakeTimers();
  // What createMemorySource({ simulate }) builds, on fake timers.
  const store = new MemoryStore();
  const simulator = new Simulator(store, { random: 1, tickMs: 20 }, timers);
  simulator.prefill();
  simulator.start();
  const source = new MemorySource(store, simulator);
  const claimed: string[] = [];
  source.store.subscribe((event) => event.event === "active" && claimed.push(event.jobId));
  assert.equal(source.simulator?.running, true);
  assert.equal(timers.pending, 1);
  await timers.tick(19);
  assert.equal(claimed.length, 0, "no tick before tickMs");
  await timers.tick(1);
  assert.ok(claimed.length > 0, "a tick ran and claimed the pre-filled backlog");
  await source.close();
  assert.equal(source.simulator?.running, false);
  assert.equal(timers.pending, 0, "the interval is cleared");
  const before = claimed.length;
  await timers.tick(1000);
  assert.equal(claimed.length, before, "no tick after close()");
});

Deno.test("simulated workers hold a 30 s lock on each active job, renewed while it runs; the scheduler leads", async () => {
  const run = await simulate(240); // a minute: jobs of 10 s and more were renewed
  try {
    const { source } = run;
    const leadership = await source.readLocks({ kind: "scheduler" });
    assert.ok(leadership.known && leadership.leader, "the simulated scheduler holds the lock");
    assert.ok(leadership.leader.ttlMs! > 29_000 && leadership.leader.ttlMs! <= 30_000);
    let checked = 0;
    for (const task of await source.listTasks()) {
      const active = (await source.listJobs(task, "active", 0, 100)).jobs.map((job) => job.id);
      const liveness = await source.readLocks({ kind: "jobs", task: task, jobIds: active });
      assert.ok(liveness.known);
      for (const lock of liveness.locks) {
        assert.ok(lock.token, `${task} ${lock.id} holds a lock`);
        // Renewed every 10 s of a 30 s lock: never below 20 s while the worker runs.
        assert.ok(lock.ttlMs! > 20_000 && lock.ttlMs! <= 30_000, `${lock.id}: ${lock.ttlMs}`);
        checked++;
      }
    }
    assert.ok(checked > 0, "some job was active");
  } finally {
    await run.source.close();
  }
});
