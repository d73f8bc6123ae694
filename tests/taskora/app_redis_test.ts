/**
 * `createBoard(app)` with a real taskora App on Redis and real workers:
 * the board reads through the App's connection, and what it changes is
 * work those workers do.
 */

import assert from "node:assert/strict";
import { holdMigrationLock } from "../helpers/migration_lock.ts";
import {
  type AppWorld,
  assertBoardsShareScanSlots,
  steerable,
  taskOf,
  waitForState,
  withApp,
} from "./harness.ts";
import { waitFor } from "../helpers/wait_for.ts";

/** Where the board's writes come from: the App's own calls, or the board's scripts on a URL. */
const BOARDS = ["app", "url"] as const;

// deno-lint-ignore no-explicit-any
function defineTasks(app: any): void {
  app.task("double", { handler: (d: { n: number }) => d.n * 2 });
  // since 2: a job stamped _v 1 fails at once; the board must stamp 2.
  app.task("report", {
    version: 2,
    since: 2,
    migrate: { 2: (d: unknown) => d },
    retry: { attempts: 3, backoff: "exponential", delay: 1000 },
    timeout: 5000,
    concurrency: 2,
    ttl: { max: "1h" },
    handler: (d: { day: string }) => ({ reported: d.day }),
  });
  app.schedule("nightly-report", { task: "report", cron: "0 3 * * *", data: { day: "today" } });
}

Deno.test("createBoard(app) serves the App's jobs through the App's own Redis connection", async () => {
  await withApp("redis", defineTasks, async (world: AppWorld) => {
    const id = await world.app.getRegisteredTasks().next().value.dispatch({ n: 21 });
    const done = await waitForState(world, id, "completed");
    assert.equal(done.result, 42);
    const overview = await world.get("/overview");
    assert.equal(overview.status, 200);
    assert.deepEqual(overview.body.tasks.map((t: { name: string }) => t.name).sort(), [
      "double",
      "report",
    ]);
  });
});

Deno.test("with the App, a task's version, since and configuration are in the API", async () => {
  await withApp("redis", defineTasks, async (world) => {
    const { body } = await world.get("/tasks/report/definition");
    assert.equal(body.definition.version, 2);
    assert.equal(body.definition.since, 2);
    assert.equal(body.definition.retry.attempts, 3);
    assert.equal(body.definition.retry.backoff, "exponential");
    assert.equal(body.definition.timeout, 5000);
    assert.equal(body.definition.concurrency, 2);
    assert.equal(body.definition.ttl.maxMs, 3_600_000);
    assert.deepEqual(body.definition.schedules, ["nightly-report"]);
    const migrations = await world.get("/tasks/report/migrations?since=3");
    assert.equal(migrations.body.since, 2);
    assert.equal(migrations.body.version, 2);
    assert.equal(migrations.body.canBump, false, "a floor above the version strands new jobs");
    const schedules = await world.get("/schedules");
    assert.equal(schedules.body[0].declaredInCode, true);
  });
});

Deno.test("a trigger from the board runs on a real worker, stamped with the task's version", async () => {
  await withApp("redis", defineTasks, async (world) => {
    const first = await world.send("/schedules/nightly-report/trigger", undefined, {
      headers: { "Idempotency-Key": "click-1" },
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.created, true);
    assert.equal(first.body.expireAtFrom, "app", "the answer says the task's TTL is applied");
    const job = await waitForState(world, first.body.jobId, "completed");
    assert.equal(job.version, 2);
    assert.deepEqual(job.result, { reported: "today" });
    assert.ok(job.timestamps.expireAt, "the task's TTL is set, as taskora's dispatch sets it");
    const again = await world.send("/schedules/nightly-report/trigger", undefined, {
      headers: { "Idempotency-Key": "click-1" },
    });
    assert.deepEqual(again.body, { ok: true, jobId: first.body.jobId, created: false });
  });
});

Deno.test("a trigger from a standalone board stamps the highest _v among the task's jobs, and a real worker runs it", async () => {
  await withApp("redis", defineTasks, async (world) => {
    const refused = await world.send("/schedules/nightly-report/trigger");
    assert.equal(refused.status, 409, "no job to learn the version from");
    assert.equal(refused.body.code, "VERSION_UNKNOWN");
    const report = taskOf(world.app, "report");
    await waitForState(world, await report.dispatch({ day: "yesterday" }), "completed");
    const triggered = await world.send("/schedules/nightly-report/trigger");
    assert.equal(triggered.status, 200, JSON.stringify(triggered.body));
    assert.equal(triggered.body.version, 2);
    assert.equal(
      triggered.body.expireAtFrom,
      "not-set",
      "the answer says the task's TTL (ttl.max 1h) is not applied: the board has only a URL",
    );
    const job = await waitForState(world, triggered.body.jobId, "completed");
    assert.equal(job.version, 2, "since is 2: a job stamped 1 would fail at once");
    assert.deepEqual(job.result, { reported: "today" });
    assert.equal(job.timestamps.expireAt ?? null, null, "as the answer said, no expireAt");
  }, { boardOn: "url" });
});

Deno.test("while taskora's migration lock is held every mutation is 503, reads go on", async () => {
  await withApp("redis", defineTasks, async (world) => {
    const { connectClient } = await import("../helpers/redis_server.ts");
    const client = await connectClient(world.url);
    try {
      await holdMigrationLock(client);
      const refused = await world.send("/schedules/nightly-report/trigger");
      assert.equal(refused.status, 503);
      assert.equal(refused.body.code, "MIGRATION_IN_PROGRESS");
      assert.match(refused.body.error, /wireVersion-6-to-7/);
      const lock = await world.get("/migration-lock");
      assert.equal(lock.body.held, true);
      assert.equal(lock.body.lock.by, "taskora-wire-7");
      assert.ok(lock.body.lock.expiresInMs > 0);
      assert.equal((await world.get("/overview")).status, 200, "reads go on");
      await client.del("taskora:migration:lock");
      await client.publish("taskora:migration:broadcast", "done");
      const allowed = await world.send("/schedules/nightly-report/trigger");
      assert.equal(allowed.status, 200);
      await waitForState(world, allowed.body.jobId, "completed");
    } finally {
      await client.close();
    }
  });
});

for (const boardOn of BOARDS) {
  Deno.test(`retry, retry-all and DLQ retry from the board (${boardOn}) are run again by a real worker`, async () => {
    let state!: ReturnType<typeof steerable>;
    await withApp("redis", (app) => state = steerable(app), async (world) => {
      const flaky = taskOf(world.app, "flaky");
      const ids: string[] = await Promise.all([1, 2, 3, 4].map(() => flaky.dispatch({})));
      for (const id of ids) await waitForState(world, id, "failed");
      state.down = false;
      const one = await world.send(`/jobs/${ids[0]}/retry`);
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.equal((await waitForState(world, ids[0], "completed")).result, "ok");
      const dlq = await world.send(`/dlq/${ids[1]}/retry`);
      assert.equal(dlq.status, 200, JSON.stringify(dlq.body));
      await waitForState(world, ids[1], "completed");
      const all = await world.send("/tasks/flaky/retry-all");
      assert.equal(all.body.retried, 2);
      for (const id of ids.slice(2)) await waitForState(world, id, "completed");
    }, { boardOn });
  });
}

for (const boardOn of BOARDS) {
  Deno.test(`cancel from the board (${boardOn}): a waiting job never runs, an active one is stopped by its worker`, async () => {
    await withApp("redis", steerable, async (world) => {
      const slow = taskOf(world.app, "slow");
      const active = await slow.dispatch({});
      await waitForState(world, active, "active");
      const waiting = await slow.dispatch({});
      const first = await world.send(`/jobs/${waiting}/cancel`, { reason: "not needed" });
      assert.equal(first.body.to, "cancelled");
      const second = await world.send(`/jobs/${active}/cancel`);
      assert.equal(second.body.to, "cancelling");
      await waitForState(world, active, "cancelled");
      const after = await world.get(`/jobs/${waiting}`);
      assert.equal(after.body.state, "cancelled");
      assert.equal(after.body.timestamps.processed, null, "the waiting job never ran");
    }, { boardOn });
  });
}

Deno.test("clean from the board removes finished jobs while the worker keeps working", async () => {
  await withApp("redis", steerable, async (world) => {
    const double = taskOf(world.app, "double");
    const old = await double.dispatch({ n: 1 });
    await waitForState(world, old, "completed");
    const cleaned = await world.send("/tasks/double/clean", { state: "completed", olderThan: 0 });
    assert.equal(cleaned.body.removed, 1);
    assert.equal((await world.get(`/jobs/${old}`)).status, 404);
    const fresh = await double.dispatch({ n: 2 });
    assert.equal((await waitForState(world, fresh, "completed")).result, 4);
  });
});

Deno.test("a workflow cancelled from the board stops: its next node never runs", async () => {
  await withApp("redis", steerable, async (world) => {
    const { chain } = await import("../../../shared/taskora/taskora.js");
    const handle = chain(taskOf(world.app, "slow").s({}), taskOf(world.app, "double").s());
    const flow = handle.dispatch();
    await flow;
    const id = flow.workflowId ?? flow.id;
    const detail = await waitFor(async () => {
      const { body } = await world.get(`/workflows/${id}`);
      return body?.nodes?.[0]?.jobState === "active" ? body : undefined;
    }, { what: "the first node active" });
    const cancel = await world.send(`/workflows/${id}/cancel`);
    assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
    await waitForState(world, detail.nodes[0].jobId, "cancelled");
    const after = await world.get(`/workflows/${id}`);
    assert.equal(after.body.state, "cancelled");
    assert.equal(after.body.nodes[1].jobState, null, "the second node was never dispatched");
  });
});

Deno.test("with the App, a job search runs through the App's ioredis connection", async () => {
  await withApp("redis", defineTasks, async (world) => {
    const task = world.app.getRegisteredTasks().next().value;
    const ids = [await task.dispatch({ n: 7 }), await task.dispatch({ n: 8 })];
    for (const id of ids) await waitForState(world, id, "completed");
    const response = await world.board.fetch(
      new Request(
        "http://localhost/board/api/tasks/double/jobs/search?state=completed&field=result&contains=16",
      ),
    );
    const frames = (await response.text()).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(
      frames.filter((f) => f.type === "match").map((f) => f.job.id),
      [ids[1]],
    );
    assert.equal(frames.at(-1).type, "end");
  });
});

Deno.test("boards on one App (redis adapter) share its scan slots, in its Redis", async () => {
  await withApp("redis", defineTasks, (world) => assertBoardsShareScanSlots(world.app));
});
