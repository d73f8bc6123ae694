/**
 * Bulk actions with a real taskora App and real workers on Redis: jobs
 * the board bulk-retries and a job it promotes are run by a worker, and a
 * job a worker moved on after the operator saw the count is reported
 * skipped, not acted on.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { type AppWorld, waitForState, withApp } from "./harness.ts";
import { waitFor } from "../helpers/wait_for.ts";

function taskOf(app: any, name: string): any {
  return [...app.getRegisteredTasks()].find((t: { name: string }) => t.name === name);
}

/** A task that fails while `broken` is set, and notes each run's data. */
function mender(app: any): { broken: boolean; ran: string[] } {
  const state = { broken: true, ran: [] as string[] };
  app.task("mend", {
    handler: (data: { name: string }) => {
      state.ran.push(data.name);
      if (state.broken) throw new Error(`broken: ${data.name}`);
      return `mended ${data.name}`;
    },
  });
  return state;
}

/** Starts a bulk operation and waits for its report. */
async function runBulk(world: AppWorld, body: unknown): Promise<any> {
  const started = await world.send("/bulk", body);
  assert.equal(started.status, 202, JSON.stringify(started.body));
  return await waitFor(async () => {
    const { body: operation } = await world.get(`/operations/${started.body.operation.id}`);
    return operation.status === "running" ? undefined : operation;
  }, { what: "the operation's end" });
}

Deno.test("bulk retry of a failed state: a real worker runs every job again", async () => {
  let state!: { broken: boolean; ran: string[] };
  await withApp("redis", (app) => state = mender(app), async (world) => {
    const task = taskOf(world.app, "mend");
    const ids: string[] = [];
    for (const name of ["a", "b", "c"]) ids.push(await task.dispatch({ name }));
    for (const id of ids) await waitForState(world, id, "failed");
    const selector = { task: "mend", state: "failed" };
    const preview = await world.send("/bulk", { action: "retry", selector, dryRun: true });
    assert.equal(preview.body.count, 3);

    state.broken = false;
    const report = await runBulk(world, { action: "retry", selector });
    assert.equal(report.status, "done");
    assert.equal(report.done, 3);
    for (const id of ids) {
      const job = await waitForState(world, id, "completed");
      assert.match(job.result, /^mended /);
      assert.equal(job.attempt, 1);
    }
  });
});

Deno.test("bulk promote: a delayed job runs now; one a worker ran meanwhile is reported skipped", async () => {
  let state!: { broken: boolean; ran: string[] };
  await withApp("redis", (app) => state = mender(app), async (world) => {
    state.broken = false;
    const task = taskOf(world.app, "mend");
    const later = await task.dispatch({ name: "later" }, { delay: 3_600_000 });
    const soon = await task.dispatch({ name: "soon" }, { delay: 3_000 });
    await waitForState(world, later, "delayed");
    const selector = { task: "mend", ids: [later, soon] };
    const preview = await world.send("/bulk", { action: "promote", selector, dryRun: true });
    assert.equal(preview.body.count, 2, "both are delayed when the operator looks");

    // A worker promotes and runs `soon` by itself before the operation starts.
    await waitForState(world, soon, "completed");
    const report = await runBulk(world, { action: "promote", selector });
    assert.equal(report.status, "done");
    assert.equal(report.done, 1);
    assert.deepEqual(report.skippedJobs, [{ id: soon, state: "completed" }]);
    const job = await waitForState(world, later, "completed");
    assert.equal(job.result, "mended later");
    assert.equal(state.ran.filter((name) => name === "soon").length, 1, "run once, not twice");
  });
});

Deno.test("bulk retry of the failed jobs matching an error filter: a real worker runs those only", async () => {
  let state!: { broken: boolean; ran: string[] };
  await withApp("redis", (app) => state = mender(app), async (world) => {
    const task = taskOf(world.app, "mend");
    const ids = new Map<string, string>();
    for (const name of ["north-1", "south-1", "north-2"]) {
      ids.set(name, await task.dispatch({ name }));
    }
    for (const id of ids.values()) await waitForState(world, id, "failed");
    const selector = {
      task: "mend",
      state: "failed",
      filter: { field: "error", contains: "NORTH" },
    };
    const preview = await world.send("/bulk", { action: "retry", selector, dryRun: true });
    assert.equal(preview.body.count, 2, "the error text is matched with ASCII case ignored");

    state.broken = false;
    const report = await runBulk(world, { action: "retry", selector });
    assert.equal(report.status, "done");
    assert.equal(report.done, 2);
    assert.equal(report.scanned, 3);
    for (const name of ["north-1", "north-2"]) {
      const job = await waitForState(world, ids.get(name)!, "completed");
      assert.equal(job.result, `mended ${name}`);
    }
    const untouched = await world.get(`/jobs/${ids.get("south-1")}`);
    assert.equal(untouched.body.state, "failed");
    assert.equal(state.ran.filter((name) => name === "south-1").length, 1, "not run again");
  });
});
