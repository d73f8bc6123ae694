/**
 * Jobs taskora's stall check fails, against a real taskora 0.5.0 worker:
 * it moves them to the failed set without counting them in the per-minute
 * failed counter a worker's own failure increments, so read from the counters
 * alone they were no failures. The board counts each minute's failures as
 * the more of its counter and the failed set's members of that minute: the
 * throughput, the health's failure rate and the `failureRate` alert see them.
 */

import assert from "node:assert/strict";
import { measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { taskOf, waitForState, withApp } from "./harness.ts";

const MINUTE = 60_000;

Deno.test("jobs taskora's stall check fails count as failures: throughput, health and failureRate", async () => {
  const releases: (() => void)[] = [];
  // deno-lint-ignore no-explicit-any
  const define = (app: any) =>
    app.task("fragile", {
      concurrency: 2,
      // The first stall fails the job; a check every 100 ms.
      stall: { interval: 100, maxCount: 0 },
      handler: () => new Promise((resolve) => releases.push(() => resolve("late"))),
    });
  await withApp("redis", define, async (world) => {
    const redis = await connectClient(world.url);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 2; i++) ids.push(String(await taskOf(world.app, "fragile").dispatch({})));
      await waitFor(async () => await redis.lLen("taskora:{fragile}:active") === 2, {
        what: "both jobs to run",
      });
      // Their worker is gone: the locks lapse while a live worker's stall check runs.
      for (const id of ids) await redis.del(`taskora:{fragile}:${id}:lock`);
      for (const id of ids) await waitForState(world, id, "failed");
      const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
      const counted = await Promise.all(
        [minute, minute - MINUTE].map((m) => redis.get(`taskora:{fragile}:metrics:failed:${m}`)),
      );
      assert.deepEqual(counted, [null, null], "taskora's failed counter never saw them");

      const { body: throughput } = await world.get("/throughput?task=fragile&count=2");
      // deno-lint-ignore no-explicit-any
      assert.equal(throughput.reduce((sum: number, b: any) => sum + b.failed, 0), 2);

      const { body: overview } = await world.get("/overview");
      // deno-lint-ignore no-explicit-any
      const health = overview.tasks.find((task: any) => task.name === "fragile").health;
      assert.equal(health.status, "critical");
      assert.equal(health.failureRate, 1);

      const source = createRedisSource({ url: world.url });
      try {
        const rule = ruleOf("failureRate", 50, {
          tasks: ["fragile"],
          windowMs: 15 * MINUTE,
          minFinished: 2,
        });
        const now = Date.now();
        const snapshot = await readSnapshot(source, [rule], now);
        assert.deepEqual(measure(rule, snapshot, new KnownShapes(), now), [
          { subject: "fragile", task: "fragile", figure: 100, breached: true },
        ]);
      } finally {
        await source.close();
      }
    } finally {
      releases.splice(0).forEach((release) => release());
      await redis.close();
    }
  });
});
