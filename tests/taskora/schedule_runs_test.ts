/**
 * The runs the board dispatches itself, beside what taskora keeps (only a
 * schedule's last run): a real taskora App on Redis with its scheduler and
 * real workers, and the board embedded with the App or standalone on its
 * Redis URL.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { type AppWorld, createTaskora, redisAdapter, waitForState, withApp } from "./harness.ts";

// deno-lint-ignore no-explicit-any
function defineTasks(app: any): void {
  app.task("ping", { handler: (d: { n: number }) => d.n + 1 });
  app.schedule("pinger", { task: "ping", every: "1s", data: { n: 1 } });
}

/** The schedule `name` as `GET /schedules` answers it. */
async function scheduleOf(world: AppWorld, name: string) {
  const { status, body } = await world.get("/schedules");
  assert.equal(status, 200, JSON.stringify(body));
  return body.find((s: { name: string }) => s.name === name);
}

for (const boardOn of ["app", "url"] as const) {
  Deno.test(`the board keeps the runs it dispatched, with their jobs' states, beside the scheduler's last run (board on the ${boardOn})`, async () => {
    await withApp("redis", defineTasks, async (world) => {
      // The scheduler runs it on its own: taskora keeps that run as the last one.
      const scheduled = await waitFor(async () => {
        const schedule = await scheduleOf(world, "pinger");
        return schedule.lastJobId ? schedule : undefined;
      }, { what: "a run of the scheduler" });
      assert.equal(scheduled.description, "Every second");
      assert.deepEqual(scheduled.boardRuns, [], "the scheduler's runs are not the board's");

      const version = await waitForState(world, scheduled.lastJobId, "completed");
      assert.equal(version.result, 2);

      const triggered = [];
      for (const key of ["click-1", "click-2", "click-2"]) {
        const { status, body } = await world.send("/schedules/pinger/trigger", undefined, {
          headers: { "Idempotency-Key": key },
        });
        assert.equal(status, 200, JSON.stringify(body));
        if (body.created) triggered.unshift(body.jobId);
      }
      assert.equal(triggered.length, 2, "a repeated key dispatches nothing");
      for (const id of triggered) await waitForState(world, id, "completed");

      const after = await scheduleOf(world, "pinger");
      assert.deepEqual(after.boardRuns.map((r: { jobId: string }) => r.jobId), triggered);
      assert.deepEqual(after.boardRuns.map((r: { state: string }) => r.state), [
        "completed",
        "completed",
      ]);
      assert.ok(after.boardRuns[0].at >= after.boardRuns[1].at);

      const removed = await world.send("/schedules/pinger", undefined, { method: "DELETE" });
      assert.equal(removed.status, 200);
    }, { boardOn });
  });
}

Deno.test("a board run is noted at the board's clock, as the schedule's times are read", async () => {
  const redis = await startRedis();
  const app = createTaskora({ adapter: redisAdapter(redis.url) });
  defineTasks(app);
  const before = Date.now();
  const timers = new FakeTimers();
  const board = createBoardOn(timers, app);
  const api = (path: string, init: RequestInit = {}) =>
    board.fetch(new Request(`http://localhost/board/api${path}`, init));
  try {
    await app.start();
    await timers.tick(7 * 60_000);
    const triggered = await api("/schedules/pinger/trigger", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    assert.equal(triggered.status, 200, await triggered.clone().text());
    const listed = await (await api("/schedules")).json();
    const [run] = listed.find((s: { name: string }) => s.name === "pinger").boardRuns;
    assert.ok(run.at >= before + 7 * 60_000, `noted at ${run.at}, the board's clock 7 min on`);
  } finally {
    await board.close();
    await app.close();
    await redis.stop();
  }
});
