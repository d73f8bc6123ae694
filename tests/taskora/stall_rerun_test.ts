/**
 * A job that ran twice, against a real taskora 0.5.0 worker: its stall
 * check lists every active job, a job that finishes before its worker
 * renews the lock stays listed with no lock, and the next check moves it
 * back to waiting although it completed (taskora does not look at the
 * state), so a worker runs it again: `completed → stalled → active →
 * completed`. The job page's attempts show both runs and what put it back,
 * and the `reruns` alert kind counts it for the task.
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

Deno.test("a completed job taskora's stall check re-ran shows both runs and the stall check between them", async () => {
  let runs = 0;
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  // deno-lint-ignore no-explicit-any
  const define = (app: any) =>
    app.task("inventory.sync", {
      stall: { interval: 100, maxCount: 50 },
      handler: async (_data: unknown, ctx: { heartbeat(): void }) => {
        runs++;
        if (runs === 1) await held;
        // Later runs renew the lock before they finish, which takes them off the check's list:
        // on a loaded machine a run outlasting a check would be put back, again and again.
        else ctx.heartbeat();
        return "synced";
      },
    });
  await withApp("redis", define, async (world) => {
    const redis = await connectClient(world.url);
    try {
      const id = String(await taskOf(world.app, "inventory.sync").dispatch({}));
      await waitForState(world, id, "active");
      await waitFor(
        async () => Number(await redis.sIsMember("taskora:{inventory.sync}:stalled", id)) === 1,
        {
          what: "the stall check to list the running job",
        },
      );
      release(); // it completes before any renewal: listed, with no lock
      // Read once the board's runs agree with the handler's count.
      const body = await waitFor(async () => {
        const { body } = await world.get(`/jobs/${id}/attempts`);
        const last = body.runs?.at(-1);
        return runs >= 2 && body.runs.length === runs && last.outcome === "completed" &&
          last.requeuedAt === null && body;
      }, { what: "the stall check to put the completed job back and a worker to run it again" });
      assert.deepEqual(body.attempts, [], "no attempt failed");
      // deno-lint-ignore no-explicit-any
      body.runs.slice(0, -1).forEach((run: any, i: number) => {
        assert.equal(run.outcome, "completed", `run ${i + 1} completed`);
        assert.ok(run.endedAt <= run.requeuedAt, "then the stall check put it back");
        assert.ok(run.requeuedAt <= body.runs[i + 1].startedAt, "and it ran again");
      });
      assert.ok((await world.get(`/jobs/${id}`)).body.stalledCount >= 1);

      // The `reruns` alert kind counts them for the task.
      const source = createRedisSource({ url: world.url });
      try {
        const rule = ruleOf("reruns", 0, { tasks: ["inventory.sync"] });
        const now = Date.now();
        const [measured] = measure(
          rule,
          await readSnapshot(source, [rule], now),
          new KnownShapes(),
          now,
        )!;
        assert.ok(measured.figure! >= body.runs.length - 1, `figure ${measured.figure}`);
        assert.equal(measured.breached, true);
      } finally {
        await source.close();
      }
    } finally {
      release();
      await redis.close();
    }
  });
});
