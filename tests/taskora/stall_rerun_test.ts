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
import { commandsOf } from "../helpers/command_stats.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, taskOf, waitForState, withApp } from "./harness.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;

/**
 * `inventory.sync`, whose first run waits for `release`; the job the test
 * dispatches is then re-run by the stall check once released.
 */
function rerunTask() {
  const task = { runs: 0, release: () => {}, define: (_app: unknown) => {} };
  const held = new Promise<void>((resolve) => task.release = resolve);
  // deno-lint-ignore no-explicit-any
  task.define = (app: any) =>
    app.task("inventory.sync", {
      stall: { interval: 100, maxCount: 50 },
      handler: async (_data: unknown, ctx: { heartbeat(): void }) => {
        task.runs++;
        if (task.runs === 1) await held;
        // Later runs renew the lock before they finish, which takes them off the check's list:
        // on a loaded machine a run outlasting a check would be put back, again and again.
        else ctx.heartbeat();
        return "synced";
      },
    });
  return task;
}

/** Dispatches a job and lets it complete while the stall check lists it with no lock; its id. */
async function completeListed(world: AppWorld, redis: Client, task: { release(): void }) {
  const id = String(await taskOf(world.app, "inventory.sync").dispatch({}));
  await waitForState(world, id, "active");
  await waitFor(
    async () => Number(await redis.sIsMember("taskora:{inventory.sync}:stalled", id)) === 1,
    { what: "the stall check to list the running job" },
  );
  task.release(); // it completes before any renewal: listed, with no lock
  return id;
}

Deno.test("a completed job taskora's stall check re-ran shows both runs and the stall check between them", async () => {
  const task = rerunTask();
  await withApp("redis", task.define, async (world) => {
    const redis = await connectClient(world.url);
    try {
      const id = await completeListed(world, redis, task);
      const runs = () => task.runs;
      // Read once the board's runs agree with the handler's count.
      const body = await waitFor(async () => {
        const { body } = await world.get(`/jobs/${id}/attempts`);
        const last = body.runs?.at(-1);
        return runs() >= 2 && body.runs.length === runs() && last.outcome === "completed" &&
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
      task.release();
      await redis.close();
    }
  });
});

Deno.test("a task whose jobs the stall check re-ran warns on the overview with the count, from the change feed", async () => {
  const task = rerunTask();
  await withApp("redis", task.define, async (world) => {
    const redis = await connectClient(world.url);
    // A browser's event stream: the leader runs the change feed, which counts the re-runs.
    const events = await world.board.fetch(new Request("http://localhost/board/api/events"));
    try {
      await completeListed(world, redis, task);
      const row = await waitFor(async () => {
        const { body } = await world.get("/overview?q=inventory.sync");
        const row = body.tasks[0];
        return /re-run/.test(row?.health.reason ?? "") && row;
      }, { what: "the overview to name the re-runs" });
      assert.equal(row.health.status, "warning");
      const [, count] = row.health.reason.match(
        /^(\d+) jobs? re-run by taskora's stall check in the last 15 min$/,
      ) ?? [];
      assert.ok(Number(count) >= 1, row.health.reason);
      // From the feed: the overview reads no stream.
      const calls = await commandsOf(redis, () => world.get("/overview"));
      assert.equal(calls.get("xrevrange") ?? 0, 0, JSON.stringify(Object.fromEntries(calls)));
    } finally {
      await events.body?.cancel();
      task.release();
      await redis.close();
    }
  });
});
