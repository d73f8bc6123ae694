/**
 * The history's charts against a real taskora 0.5.0 worker on Redis: what
 * `GET /history/rollups` and `GET /history/week` count is what the worker
 * did (jobs completed, jobs failing after a retry), for every task, one
 * task and one version of it.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { waitFor } from "../helpers/wait_for.ts";
import { taskOf, withApp } from "./harness.ts";

Deno.test("the rollups count what a real worker did: completions, failures after a retry, arrivals", async () => {
  const resized = 6;
  const charged = 3;
  await withApp("redis", (app: any) => {
    app.task("resize", { handler: (data: { n: number }) => ({ n: data.n }) });
    app.task("charge", {
      retry: { attempts: 2, backoff: "fixed", delay: 1 },
      handler: () => {
        throw new Error("card declined");
      },
    });
  }, async (world) => {
    for (let n = 0; n < resized; n++) await taskOf(world.app, "resize").dispatch({ n });
    for (let n = 0; n < charged; n++) await taskOf(world.app, "charge").dispatch({ n });
    const all = await waitFor(async () => {
      const { body } = await world.get("/history/rollups?range=1h");
      return body.totals.completed === resized && body.totals.failed === charged && body;
    }, { what: "the recorder to record every job's end" });
    assert.equal(all.resolution, "minute");
    assert.equal(all.points.length, 60);
    assert.deepEqual(
      [all.totals.arrivals, all.totals.retried, all.totals.reruns],
      [resized + charged, charged, 0],
      "each job arrived once; each charge was retried once",
    );
    assert.equal(all.totals.failureRate, charged / (resized + charged));
    const { p50, p95, p99 } = all.totals.run;
    assert.ok(0 <= p50 && p50 <= p95 && p95 <= p99, JSON.stringify(all.totals.run));
    const perBucket = all.points.reduce((sum: number, point: any) => sum + point.completed, 0);
    assert.equal(perBucket, resized, "the buckets add up to the totals");

    const charge = (await world.get("/history/rollups?task=charge&range=6h")).body;
    assert.deepEqual(
      [charge.task, charge.totals.completed, charge.totals.failed, charge.totals.retried],
      ["charge", 0, charged, charged],
    );
    assert.equal(charge.totals.failureRate, 1);
    const resize = (await world.get("/history/rollups?task=resize&range=24h")).body.totals;
    // taskora stamps a task without a version as version 1.
    const version = (await world.get("/history/rollups?task=resize&version=1&range=24h")).body;
    assert.equal(version.version, 1);
    assert.deepEqual(version.totals, resize, "every resize ran on version 1");
    assert.equal(
      (await world.get("/history/rollups?task=resize&version=2")).body.totals.completed,
      0,
    );

    const week = await world.get("/history/week?task=charge");
    assert.equal(week.status, 200);
    assert.deepEqual(
      [week.body.current.failed, week.body.current.retried, week.body.current.failureRate],
      [charged, charged, 1],
    );
    assert.equal(week.body.previous, null, "the history began this week");
  }, { boardOn: "url", board: { history: true } });
});
