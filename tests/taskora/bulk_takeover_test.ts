/**
 * A bulk retry with a real taskora App and real workers on Redis, whose
 * runner dies after a step acted and before its cursor was saved: another
 * board takes it over from the saved cursor, and the workers' own record
 * shows every failed job run again exactly once (none twice, none left).
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { LEASE_MS, replica, SWEEP_MS, until } from "../http/operation_replicas.ts";
import { taskOf, withApp } from "./harness.ts";

const JOBS = 250;

Deno.test("a runner killed mid-retry is taken over: each of 250 failed jobs runs again exactly once", async () => {
  const runs = new Map<string, number>();
  let broken = true;
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
    await waitFor(async () => {
      const { body } = await world.get("/tasks/mend/stats");
      return body.failed === JOBS;
    }, { what: "every job failed once" });
    broken = false;

    const sources = [createRedisSource({ url: world.url }), createRedisSource({ url: world.url })];
    const [a, b] = sources.map(replica);
    try {
      // A's second step acts, then A is gone before it saves its cursor.
      a.gate.holdSteps("after", 1);
      const started = await a.call("POST", "/bulk", {
        action: "retry",
        selector: { task: "mend", state: "failed" },
      });
      assert.equal(started.status, 202);
      const { operation } = await started.json();
      await until(() => a.gate.waiting === 1, "A's second step acted");

      await b.timers.tick(LEASE_MS + SWEEP_MS);
      const report = await waitFor(async () => {
        const now = await b.json<BulkOperation>("GET", `/operations/${operation.id}`);
        return now.status === "running" ? undefined : now;
      }, { what: "the operation's end" });
      assert.equal(report.status, "done");
      assert.notEqual(report.runner, operation.runner);

      await waitFor(async () => {
        const { body } = await world.get("/tasks/mend/stats");
        return body.completed === JOBS;
      }, { what: "every job run again" });
      assert.equal(runs.size, JOBS);
      const twice = [...runs.values()].filter((count) => count === 2).length;
      assert.equal(twice, JOBS, "each ran once failing, then once more: none twice, none left");
    } finally {
      a.gate.holdSteps(null);
      a.gate.release();
      await a.board.close();
      await b.board.close();
      for (const source of sources) await source.close();
    }
  });
});
