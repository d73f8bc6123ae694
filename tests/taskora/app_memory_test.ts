/**
 * `createBoard(app)` with the same App on taskora's memory adapter: the
 * board works through the App's public API.
 */

import assert from "node:assert/strict";
import { assertBoardsShareScanSlots, steerable, taskOf, waitForState, withApp } from "./harness.ts";
import { waitFor } from "../helpers/wait_for.ts";

// deno-lint-ignore no-explicit-any
function defineTasks(app: any): void {
  app.task("double", { version: 3, since: 2, handler: (d: { n: number }) => d.n * 2 });
  app.schedule("every-hour", { task: "double", every: "1h", data: { n: 5 } });
}

Deno.test("on the memory adapter the board serves the overview, a job and the schedules", async () => {
  await withApp("memory", defineTasks, async (world) => {
    const double = [...world.app.getRegisteredTasks()][0];
    const id = await double.dispatch({ n: 21 });
    const job = await waitForState(world, id, "completed");
    assert.equal(job.result, 42);
    assert.equal(job.version, 3);
    const overview = await world.get("/overview");
    assert.equal(overview.status, 200, JSON.stringify(overview.body));
    assert.equal(overview.body.tasks[0].name, "double");
    assert.equal(overview.body.tasks[0].stats.completed, 1);
    const schedules = await world.get("/schedules");
    assert.equal(schedules.body[0].name, "every-hour");
    assert.equal(schedules.body[0].declaredInCode, true);
    const triggered = await world.send("/schedules/every-hour/trigger");
    assert.equal(triggered.status, 200, JSON.stringify(triggered.body));
    assert.equal((await waitForState(world, triggered.body.jobId, "completed")).result, 10);
    const migrations = await world.get("/tasks/double/migrations");
    assert.equal(migrations.body.since, 2);
    assert.equal(migrations.body.version, 3);
    const lock = await world.get("/migration-lock");
    assert.deepEqual(lock.body, { held: false, lock: null });
  });
});

Deno.test("through the App, a schedule's data sent back with its mask keeps the stored secret", async () => {
  await withApp("memory", (app) => {
    app.task("sync", { handler: () => null });
    app.schedule("vault-sync", {
      task: "sync",
      every: "1h",
      data: { token: "s3cret", region: "eu" },
    });
  }, async (world) => {
    const shown = (await world.get("/schedules")).body[0].config.data;
    assert.deepEqual(shown, { token: "[REDACTED]", region: "eu" });
    const saved = await world.send("/schedules/vault-sync", { data: { ...shown, region: "us" } }, {
      method: "PUT",
    });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    const [stored] = await world.app.schedules.list();
    assert.deepEqual(stored.config.data, { token: "s3cret", region: "us" });
    assert.equal(stored.config.maskedKeys, undefined, "nothing of the board's is stored");
  }, { board: { redact: ["token"] } });
});

// taskora's memory adapter answers a job's state whatever task it is asked
// for: the board must not take the first task (`double`) that answers.
Deno.test("on the memory adapter a job of another task than the first is found, retried and cancelled as that task's", async () => {
  let state!: ReturnType<typeof steerable>;
  await withApp("memory", (app) => state = steerable(app), async (world) => {
    const failed = await taskOf(world.app, "flaky").dispatch({});
    const detail = await waitForState(world, failed, "failed");
    assert.equal(detail.task, "flaky");

    state.down = false;
    const retried = await world.send(`/jobs/${failed}/retry`);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(retried.body.task, "flaky");
    assert.equal((await waitForState(world, failed, "completed")).result, "ok");

    const slow = taskOf(world.app, "slow");
    const running = await slow.dispatch({});
    await waitForState(world, running, "active");
    const queued = await slow.dispatch({});
    const job = await world.get(`/jobs/${queued}`);
    assert.equal(job.body.task, "slow");
    assert.equal(job.body.state, "waiting");
    const cancelled = await world.send(`/jobs/${queued}/cancel`);
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    assert.equal(cancelled.body.task, "slow");
    assert.equal(cancelled.body.to, "cancelled");
    // The next job queued behind it runs only after the cancelled one's turn.
    const after = await slow.dispatch({});
    await waitFor(async () => {
      state.release.shift()?.();
      return (await world.get(`/jobs/${after}`)).body.state === "completed";
    }, { what: `job ${after} completed` });
    assert.equal((await world.get(`/jobs/${queued}`)).body.state, "cancelled");
  });
});

// taskora's ScheduleManager.update writes the next run (ZADD) whatever the
// schedule's state: through the App, an edit must not resume a paused one.
Deno.test("on the memory adapter an edit keeps a paused schedule paused, as on Redis", async () => {
  await withApp("memory", defineTasks, async (world) => {
    const paused = await world.send("/schedules/every-hour/pause");
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    const edited = await world.send("/schedules/every-hour", { every: "2h", data: { n: 6 } }, {
      method: "PUT",
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    const [schedule] = (await world.get("/schedules")).body;
    assert.equal(schedule.paused, true);
    assert.equal(schedule.nextRun, null);
    assert.equal(schedule.config.every, 7_200_000, "the edit is kept");
    assert.deepEqual(schedule.config.data, { n: 6 });
    const [info] = await world.app.schedules.list();
    assert.equal(info.paused, true, "taskora's own view: paused");
  });
});

Deno.test("boards on one App (memory adapter) share its scan slots, in its process, as its store is", async () => {
  await withApp("memory", defineTasks, (world) => assertBoardsShareScanSlots(world.app));
});

Deno.test("on the memory adapter the oldest waiting job is found behind higher priorities, as on Redis", async () => {
  // deno-lint-ignore no-explicit-any
  const define = (app: any) => {
    app.task("digest", { handler: () => "ok" });
    app.task("clock", { handler: () => "ok" });
  };
  await withApp("memory", define, async (world) => {
    const digest = taskOf(world.app, "digest");
    const starved = String(await digest.dispatch({}, { priority: 1 }));
    const createdOf = async (id: string) =>
      (await world.get(`/jobs/${id}`)).body.timestamps.created;
    const since = await createdOf(starved);
    // Jobs of another task until the App's clock is past it (within one ms, ages tie), then
    // 40 of a higher priority.
    const clock = taskOf(world.app, "clock");
    while (await createdOf(String(await clock.dispatch({}))) <= since);
    for (let n = 0; n < 40; n++) await digest.dispatch({ n }, { priority: 5 });
    const { body } = await world.get("/overview");
    const row = body.tasks.find((task: { name: string }) => task.name === "digest");
    assert.equal(row.stats.waiting, 41);
    assert.equal(row.latency.oldestWaiting.id, starved, JSON.stringify(row.latency));
  }, { start: false });
});
