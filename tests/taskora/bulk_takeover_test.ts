/**
 * A bulk retry with a real taskora App and real workers on Redis, whose
 * runner dies after a step acted and before its cursor was saved: another
 * board takes it over from the saved cursor, and the workers' own record
 * shows every failed job run again exactly once (none twice, none left),
 * also when the jobs the lost step retried have failed again meanwhile.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { LEASE_MS, replica, SWEEP_MS, until } from "../http/operation_replicas.ts";
import { type AppWorld, taskOf, withApp } from "./harness.ts";

const JOBS = 250;

/** How many jobs of the `mend` task are in `state`, as the App's board counts them. */
async function counted(world: AppWorld, state: string): Promise<number> {
  const { body } = await world.get("/tasks/mend/stats");
  return body[state];
}

/**
 * Fails {@link JOBS} jobs once, then retries them all on board A, which dies
 * once its second step acted; `meanwhile` runs before board B takes over.
 * Returns how many times each job ran, once the workers are done.
 */
async function retryWithKilledRunner(
  mendWhileRetrying: boolean,
  meanwhile: (world: AppWorld, runs: Map<string, number>) => Promise<void>,
  selector: Record<string, unknown> = { task: "mend", state: "failed" },
): Promise<{ runs: Map<string, number>; report: BulkOperation }> {
  const runs = new Map<string, number>();
  let broken = true;
  let report!: BulkOperation;
  await withApp("redis", (app: any) => {
    app.task("mend", {
      handler: (data: { name: string }) => {
        runs.set(data.name, (runs.get(data.name) ?? 0) + 1);
        if (broken) throw new Error(`broken: ${data.name}`);
        return "mended";
      },
    });
  }, async (world) => {
    const task = taskOf(world.app, "mend");
    for (let i = 0; i < JOBS; i++) await task.dispatch({ name: `job-${i}` });
    await waitFor(async () => await counted(world, "failed") === JOBS, {
      what: "every job failed once",
    });
    broken = !mendWhileRetrying;

    const sources = [createRedisSource({ url: world.url }), createRedisSource({ url: world.url })];
    const [a, b] = sources.map((source) => replica(source));
    try {
      a.gate.holdSteps("after", 1);
      const started = await a.call("POST", "/bulk", { action: "retry", selector });
      assert.equal(started.status, 202);
      const { operation } = await started.json();
      await until(() => a.gate.waiting === 1, "A's second step acted");
      await meanwhile(world, runs);

      // A's lease runs out on B's clock; B's sweep takes the operation over.
      await b.timers.tick(LEASE_MS + SWEEP_MS);
      report = await waitFor(async () => {
        const now = await b.json<BulkOperation>("GET", `/operations/${operation.id}`);
        return now.status === "running" ? undefined : now;
      }, { what: "the operation's end" });
      assert.notEqual(report.runner, operation.runner);
      const settled = mendWhileRetrying ? "completed" : "failed";
      await waitFor(async () => await counted(world, settled) === JOBS, {
        what: `every job ${settled} again`,
      });
    } finally {
      a.gate.holdSteps(null);
      a.gate.release();
      await a.board.close();
      await b.board.close();
      for (const source of sources) await source.close();
    }
  });
  return { runs, report };
}

Deno.test("a runner killed mid-retry is taken over: each of 250 failed jobs runs again exactly once", async () => {
  const { runs, report } = await retryWithKilledRunner(true, async () => {});
  assert.equal(report.status, "done");
  assert.equal(runs.size, JOBS);
  assert.deepEqual(new Set(runs.values()), new Set([2]), "once failing, once more: none twice");
});

Deno.test("jobs the lost step retried that failed again meanwhile are not retried a second time", async () => {
  const { runs, report } = await retryWithKilledRunner(false, async (world, ran) => {
    // The 200 jobs of A's two steps ran again and failed again before B takes over.
    await waitFor(async () =>
      [...ran.values()].filter((count) => count === 2).length === 200 &&
      await counted(world, "failed") === JOBS, { what: "the retried jobs failed again" });
  });
  assert.equal(report.status, "done");
  assert.equal(runs.size, JOBS);
  assert.deepEqual(new Set(runs.values()), new Set([2]), "each retried once by the operation");
});

Deno.test("the same with a filter selection: the saved slice is gone on with, no job retried twice", async () => {
  const selector = {
    task: "mend",
    state: "failed",
    filter: { field: "error", contains: "broken" },
  };
  const { runs, report } = await retryWithKilledRunner(false, async (world, ran) => {
    await waitFor(async () =>
      [...ran.values()].filter((count) => count === 2).length === 200 &&
      await counted(world, "failed") === JOBS, { what: "the retried jobs failed again" });
  }, selector);
  assert.equal(report.status, "done");
  assert.equal(runs.size, JOBS);
  assert.deepEqual(new Set(runs.values()), new Set([2]), "each retried once by the operation");
});
