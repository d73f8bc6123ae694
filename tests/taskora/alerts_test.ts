/**
 * Alerts against a real taskora worker on a real Redis, nobody watching:
 * jobs that fail fire `failureRate` within one evaluation interval plus the
 * rule's `for`, and retrying them (the worker now succeeds) resolves it.
 * The board's timers are fake; the worker, Redis and the receiver are real.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { AlertNotice, AlertRuleFile } from "../../src/contract/alerts.ts";
import { alertKeys } from "../../src/source/wire/keys.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { steerable, taskOf, waitForState, withApp } from "./harness.ts";

const EVERY_MS = 5000;
const FOR_MS = 5000;

/**
 * A board on the App's Redis URL, on fake timers, evaluating `rule` every
 * {@link EVERY_MS} and telling a local receiver.
 */
function alertingBoard(url: string, rule: AlertRuleFile) {
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  const board = createBoardOn(timers, url, {
    alerts: {
      evaluateEvery: EVERY_MS,
      sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: "s".repeat(32) }],
      rules: [rule],
    },
  });
  return {
    timers,
    notices: () => hook.received.map((r) => JSON.parse(r.body) as AlertNotice),
    close: async () => {
      await board.close();
      await hook.close();
    },
  };
}

Deno.test("failing jobs fire failureRate within one interval plus for; retrying them resolves it", async () => {
  let steer: ReturnType<typeof steerable>;
  await withApp("redis", (app) => steer = steerable(app), async (world) => {
    const { timers, notices, close } = alertingBoard(world.url, {
      name: "flaky failing",
      kind: "failureRate",
      tasks: ["flaky"],
      threshold: 60,
      window: "15m",
      minFinished: 4,
      for: FOR_MS,
      sinks: ["ops"],
    });
    const client = await connectClient(world.url);
    try {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await taskOf(world.app, "flaky").dispatch({ i }));
      for (const id of ids) await waitForState(world, id, "failed");

      await timers.tick(EVERY_MS); // the first pass: the breach starts pending
      await waitFor(async () => (await client.get(alertKeys().states))?.includes('"pending"'), {
        what: "the first pass to leave the alert pending",
      });
      assert.deepEqual(notices(), [], "pending: nothing told before `for` has passed");
      await timers.tick(FOR_MS);
      await waitFor(() => notices().length > 0, { what: "the firing notice" });
      const [firing] = notices();
      assert.deepEqual([firing.state, firing.task, firing.figure, firing.threshold], [
        "firing",
        "flaky",
        100,
        60,
      ]);

      steer!.down = false;
      const retried = await world.send("/tasks/flaky/retry-all");
      assert.equal(retried.status, 200, JSON.stringify(retried.body));
      for (const id of ids) await waitForState(world, id, "completed");
      await waitFor(async () => (await timers.tick(EVERY_MS), notices().length > 1), {
        what: "the resolve notice",
      });
      const [, resolved] = notices();
      assert.deepEqual([resolved.state, resolved.key, resolved.figure], [
        "resolved",
        firing.key,
        50,
      ]);
    } finally {
      await close();
      await client.close();
    }
  });
});

Deno.test("scheduleMissed fires for a real schedule once its workers are stopped", async () => {
  await withApp("redis", (app) => {
    app.task("tick", { handler: () => "ok" });
    app.schedule("every-second", { task: "tick", every: "1s" });
  }, async (world) => {
    await waitFor(async () => {
      const { body } = await world.get("/schedules");
      return body.find((s: { name: string }) => s.name === "every-second")?.lastRun;
    }, { what: "the scheduler's first run" });
    await world.app.close(); // scheduler and workers stop: the next run never comes

    const { timers, notices, close } = alertingBoard(world.url, {
      name: "schedules late",
      kind: "scheduleMissed",
      threshold: "2s",
      sinks: ["ops"],
    });
    try {
      await waitFor(async () => (await timers.tick(EVERY_MS), notices().length > 0), {
        what: "the scheduleMissed notice",
      });
      const [notice] = notices();
      assert.deepEqual(
        [notice.rule, notice.state, notice.schedule, notice.task, notice.unit, notice.threshold],
        ["schedules late", "firing", "every-second", "tick", "duration", 2000],
      );
      assert.ok(notice.figure! > 2000, String(notice.figure));
      assert.equal(notice.link, "/board/schedules");
    } finally {
      await close();
    }
  });
});
