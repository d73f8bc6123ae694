/**
 * `createBoard(app)` with the same App on taskora's memory adapter: the
 * board works through the App's public API.
 */

import assert from "node:assert/strict";
import { waitForState, withApp } from "./harness.ts";

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
