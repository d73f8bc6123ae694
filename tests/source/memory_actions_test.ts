/**
 * The memory source's actions, in the details only it has: the simulator's
 * workers finish a flagged cancel and run retried jobs, long actions go in
 * batches and let the event loop breathe between them, and the exact fields
 * and orders the store writes.
 */

import assert from "node:assert/strict";
import { BoardError } from "../../src/errors.ts";
import { CLEAN_BATCH, RETRY_BATCH } from "../../src/source/memory/job_actions.ts";
import { checkedSource } from "../../src/source/checked.ts";
import {
  createMemorySource,
  type KeyspaceDump,
  MemorySource,
  MemoryStore,
  type StoredJob,
  type StoreEvent,
} from "../../src/source/memory/mod.ts";
import { priorityScore } from "../../src/source/memory/store.ts";
import type { TaskEvent, TaskEventFields } from "../../src/source/types.ts";
import { readFixture } from "../helpers/fixture.ts";

const dump: KeyspaceDump = readFixture();
const FAILED_EMAIL = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const START = Date.UTC(2026, 10, 23, 12, 0, 0);
const TICK = 250;

/** A fresh store on a clock the test moves by hand. */
function manual() {
  const clock = { now: START };
  const store = new MemoryStore({ now: () => clock.now });
  // As its factory makes it: with the port's refusals (`checked.ts`).
  return { clock, store, source: checkedSource(new MemorySource(store)) };
}

/** A finished job placed straight into its set, as an imported keyspace would hold it. */
function finishedJob(
  store: MemoryStore,
  task: string,
  id: string,
  state: "failed" | "completed",
  finishedAt: number,
  extra: Partial<StoredJob> = {},
): void {
  const job: StoredJob = {
    id,
    task,
    state,
    data: { id },
    result: state === "completed" ? true : null,
    error: state === "failed" ? "boom" : null,
    progress: 50,
    attempt: 3,
    maxAttempts: 3,
    version: 1,
    priority: 0,
    createdAt: finishedAt - 1_000,
    processedAt: finishedAt - 500,
    finishedAt,
    runAt: null,
    cancelledAt: null,
    cancelReason: null,
    expireAt: null,
    stalledCount: 0,
    workflow: null,
    logs: [{ level: "info", message: "ran", timestamp: finishedAt }],
    ...extra,
  };
  store.putJob(job);
  store.addFinished(job, state, finishedAt);
}

function assertCode(code: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof BoardError);
    assert.equal(error.code, code, error.message);
    return true;
  };
}

Deno.test("cancelJob() on a running job: the simulator's worker stops it and records the cancel", async () => {
  const clock = { now: START };
  const source = createMemorySource({ simulate: { random: 5, tickMs: 0 }, now: () => clock.now });
  const events: StoreEvent[] = [];
  source.store.subscribe((event) => events.push(event));
  let target: string | undefined;
  for (let i = 0; i < 40 && target === undefined; i++) {
    clock.now += TICK;
    source.simulator!.tick();
    target = source.store.tasks.get("generate-report")?.active[0];
  }
  assert.ok(target, "a long generate-report job is running");
  const requestedAt = clock.now;
  assert.deepEqual(await source.cancelJob(target, "operator stop"), {
    id: target,
    task: "generate-report",
    from: "active",
    to: "cancelling",
  });
  assert.equal((await source.getJob(target))?.state, "active");

  clock.now += TICK;
  source.simulator!.tick();
  const job = await source.getJob(target);
  assert.equal(job?.state, "cancelled");
  assert.equal(job?.cancelReason, "operator stop");
  assert.equal(job?.cancelledAt, requestedAt);
  assert.equal(job?.finishedAt, clock.now);
  assert.equal(job?.logs.at(-1)?.message, "stopped: cancel requested");
  assert.ok(
    (await source.listJobs("generate-report", "cancelled", 0, 5)).jobs.some((j) => j.id === target),
  );
  assert.deepEqual(
    events.filter((e) => e.jobId === target && e.event === "cancelled").map((e) => e.fields),
    [{ reason: "operator stop" }],
  );
  await source.close();
});

Deno.test("retryJob(): the simulator's workers pick the retried job up and run it again", async () => {
  const clock = { now: dump.dumpedAt! + 60_000 };
  const source = createMemorySource({
    seed: dump,
    simulate: { random: 2, tickMs: 0, history: false },
    now: () => clock.now,
  });
  await source.retryJob(FAILED_EMAIL);
  clock.now += TICK;
  source.simulator!.tick();
  const started = await source.getJob(FAILED_EMAIL);
  assert.equal(started?.state, "active", "first in the wait list, claimed on the next tick");
  assert.equal(started?.attempt, 1);
  assert.equal(started?.processedAt, clock.now);
  for (let i = 0; i < 40 && (await source.getJob(FAILED_EMAIL))?.state === "active"; i++) {
    clock.now += TICK;
    source.simulator!.tick();
  }
  const ran = await source.getJob(FAILED_EMAIL);
  assert.ok(["completed", "retrying", "failed"].includes(ran!.state), ran!.state);
  assert.ok(ran!.logs.length > 2, "the new attempt logged next to the old ones");
  await source.close();
});

Deno.test("retryJob() clears the last run, takes a fresh ts and emits waiting", async () => {
  const { clock, store, source } = manual();
  finishedJob(store, "mail", "plain", "failed", START - 5_000);
  finishedJob(store, "mail", "urgent", "failed", START - 4_000, { priority: 7, stalledCount: 2 });
  const events: StoreEvent[] = [];
  store.subscribe((event) => events.push(event));
  clock.now += 1_000;
  await source.retryJob("urgent");
  await source.retryJob("plain");
  const queue = store.tasks.get("mail")!;
  assert.deepEqual(queue.wait, ["plain"]);
  assert.equal(queue.prioritized.score("urgent"), priorityScore(7, clock.now));
  const urgent = (await source.getJob("urgent"))!;
  assert.equal(urgent.createdAt, clock.now);
  assert.deepEqual(
    [
      urgent.attempt,
      urgent.error,
      urgent.progress,
      urgent.processedAt,
      urgent.finishedAt,
      urgent.stalledCount,
    ],
    [1, null, null, null, null, 0],
  );
  assert.deepEqual(events.map((e) => [e.event, e.jobId]), [
    ["waiting", "urgent"],
    ["waiting", "plain"],
  ]);
});

Deno.test("retryAllFailed() goes in batches of 100 and yields between them", async () => {
  const { store, source } = manual();
  for (let i = 0; i < 250; i++) {
    finishedJob(store, "mail", `f${String(i).padStart(3, "0")}`, "failed", START - 10_000 + i);
  }
  finishedJob(store, "other", "o1", "failed", START - 1);
  const batches: number[] = [];
  const retryFailed = store.retryFailed.bind(store);
  store.retryFailed = (task, limit) => {
    const batch = retryFailed(task, limit);
    batches.push(batch.retried);
    return batch;
  };
  let waitingWhenTimerRan = -1;
  setTimeout(() => waitingWhenTimerRan = store.tasks.get("mail")!.wait.length, 0);

  assert.deepEqual(await source.retryAllFailed({ task: "mail" }), { retried: 250 });
  assert.equal(RETRY_BATCH, 100);
  assert.deepEqual(batches, [100, 100, 50]);
  assert.equal(waitingWhenTimerRan, 100, "a timer ran after the first batch");
  // Longest-failed first, so they run in the order they failed.
  assert.deepEqual(store.tasks.get("mail")!.wait.slice(0, 3), ["f000", "f001", "f002"]);
  assert.equal(store.tasks.get("other")!.finished.failed.size, 1, "one task only");

  assert.deepEqual(await source.retryAllFailed(), { retried: 1 });
  assert.equal(store.tasks.get("other")!.wait[0], "o1");
});

Deno.test("cleanJobs() deletes in batches of 500, logs included, cutoff inclusive", async () => {
  const { store, source } = manual();
  for (let i = 0; i < 2_500; i++) {
    finishedJob(store, "mail", `c${i}`, "completed", START - 60_000 - i);
  }
  finishedJob(store, "mail", "edge", "completed", START - 30_000);
  finishedJob(store, "mail", "fresh", "completed", START - 29_999);
  const batches: number[] = [];
  const clean = store.clean.bind(store);
  store.clean = (task, state, cutoff, limit) => {
    const count = clean(task, state, cutoff, limit);
    batches.push(count);
    return count;
  };
  assert.deepEqual(await source.cleanJobs("mail", "completed", 30_000), { removed: 2_501 });
  assert.equal(CLEAN_BATCH, 500);
  assert.deepEqual(batches, [500, 500, 500, 500, 500, 1]);
  assert.equal(await source.getJob("edge"), null, "finished exactly at the cutoff: removed");
  assert.equal((await source.getJob("fresh"))?.state, "completed");
  assert.equal(store.tasks.get("mail")!.jobs.size, 1);
  assert.equal((await source.getTaskStorage("mail")).keyCount, 3, "job, its logs, the set");
  await assert.rejects(source.cleanJobs("mail", "active" as never, 0), assertCode("INVALID_PARAM"));
  await assert.rejects(source.cleanJobs("mail", "completed", -1), assertCode("INVALID_PARAM"));
});

Deno.test("cancelWorkflow(): the simulator's workers stop the signalled node jobs", async () => {
  const clock = { now: START };
  const source = createMemorySource({
    simulate: { random: 9, tickMs: 0, history: false },
    now: () => clock.now,
  });
  const id = source.simulator!.startWorkflow();
  clock.now += TICK;
  source.simulator!.tick();
  const before = await source.getWorkflow(id);
  const open = before!.nodes.filter((n) => n.state === "pending" || n.state === "active").length;
  const result = await source.cancelWorkflow(id);
  assert.equal(result.cancelled + result.signalled, open);
  assert.ok(result.signalled > 0, "a root node job was running");
  const after = await source.getWorkflow(id);
  assert.equal(after?.state, "cancelled");
  assert.equal(after?.error, null, "no reason given: no error, as taskora does");
  clock.now += TICK;
  source.simulator!.tick();
  for (const node of after!.nodes) {
    const job = await source.getJob(node.jobId);
    if (job) assert.equal(job.state, "cancelled", `${node.taskName} ${job.state}`);
    if (job) assert.equal(job.cancelReason, "workflow cancelled");
  }
  await source.close();
});

Deno.test("triggerSchedule() dispatches with the task's newest version", async () => {
  const { store, source } = manual();
  finishedJob(store, "digest", "old", "completed", START - 1_000, { version: 4 });
  finishedJob(store, "digest", "older", "completed", START - 2_000, { version: 2 });
  store.schedules.set("digest", {
    json: JSON.stringify({ task: "digest", every: 1_000 }),
    nextRun: null,
  });
  store.schedules.set("fresh", {
    json: JSON.stringify({ task: "brand-new", every: 1_000 }),
    nextRun: 5,
  });
  const { jobId } = await source.triggerSchedule("digest");
  assert.equal((await source.getJob(jobId))?.version, 4);
  assert.equal((await source.getJob(jobId))?.data, null);
  assert.equal(store.schedules.get("digest")!.nextRun, null, "a paused schedule stays paused");
  // No job says brand-new's version: refused, not guessed as 1.
  await assert.rejects(() => source.triggerSchedule("fresh"), { code: "VERSION_UNKNOWN" });
  assert.deepEqual(await source.listTasks(), ["digest"]);
});

Deno.test("updateSchedule() refuses patches taskora's scheduler could not run", async () => {
  const { clock, store, source } = manual();
  store.schedules.set("tick", {
    json: JSON.stringify({ task: "t", every: 1_000, lastRun: 7, lastJobId: "j" }),
    nextRun: START,
  });
  const refused = [
    { cron: "* * * * *", every: 1_000 },
    { every: 0 },
    { every: 1.5 },
    { timezone: "Europe/Berlin" },
    { onMissed: "sometimes" },
    { cron: "61 * * * *" },
  ];
  for (const patch of refused) {
    await assert.rejects(source.updateSchedule("tick", patch), assertCode("INVALID_PARAM"));
  }
  assert.deepEqual(JSON.parse(store.schedules.get("tick")!.json), {
    task: "t",
    every: 1_000,
    lastRun: 7,
    lastJobId: "j",
  });
  clock.now += 10;
  const updated = await source.updateSchedule("tick", {
    cron: "*/5 * * * *",
    timezone: "Asia/Tokyo",
    onMissed: "catch-up-limit:3",
  });
  assert.deepEqual(updated.config, {
    task: "t",
    cron: "*/5 * * * *",
    timezone: "Asia/Tokyo",
    onMissed: "catch-up-limit:3",
  });
  assert.equal(updated.nextRun, START + 5 * 60_000);
  assert.deepEqual([updated.lastRun, updated.lastJobId], [7, "j"]);
});

Deno.test("subscribe() delivers each action's events after the write, until unsubscribed", async () => {
  const { store, source } = manual();
  finishedJob(store, "mail", "a", "failed", START - 5_000);
  finishedJob(store, "mail", "b", "failed", START - 4_000);
  const seen: [string, string, TaskEventFields][] = [];
  const unsubscribe = source.subscribe((event) => {
    seen.push([event.event, event.jobId, event.fields]);
    assert.equal(event.task, "mail");
    assert.equal(event.at, START);
  });
  const retried = source.retryJob("a");
  assert.deepEqual(seen, [], "not in the middle of the transition");
  await retried;
  await source.cancelJob("a", "changed my mind");
  await Promise.resolve();
  assert.deepEqual(seen, [
    ["waiting", "a", {}],
    ["cancelled", "a", { reason: "changed my mind" }],
  ]);
  unsubscribe();
  await source.retryJob("b");
  await Promise.resolve();
  assert.equal(seen.length, 2);
});

Deno.test("subscribe() hands over fields decoded as the Redis source decodes a stream entry", async () => {
  const { clock, store, source } = manual();
  const seen: TaskEvent[] = [];
  source.subscribe((event) => seen.push(event));
  const job = store.enqueue("mail", { id: "m1", data: {} });
  store.claim("mail");
  store.setProgress("mail", job.id, { step: 2 });
  clock.now += 40;
  store.complete("mail", job.id, { sent: true });
  await Promise.resolve();
  assert.deepEqual(seen.map(({ event, fields }) => [event, fields]), [
    ["waiting", {}],
    ["active", {}],
    ["progress", { value: { step: 2 } }],
    ["completed", { result: { sent: true }, duration: 40 }],
  ]);
});
