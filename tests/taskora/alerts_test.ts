/**
 * Alerts against a real taskora worker on a real Redis, nobody watching:
 * jobs that fail fire `failureRate` within one evaluation interval plus the
 * rule's `for`, and retrying them (the worker now succeeds) resolves it.
 * The board's timers are fake; the worker, Redis and the receiver are real.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { AlertHistoryEntry, AlertNotice, AlertRuleFile } from "../../src/contract/alerts.ts";
import { alertKeys } from "../../src/source/wire/keys.ts";
import { alertPass } from "../helpers/alert_pass.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { type AppWorld, steerable, taskOf, waitForState, withApp } from "./harness.ts";

const EVERY_MS = 5000;
const FOR_MS = 5000;

/**
 * A board on the App's Redis URL, on fake timers, evaluating `rule` every
 * {@link EVERY_MS} and telling a local receiver.
 */
function alertingBoard(url: string, rule: AlertRuleFile, statuses?: number[]) {
  const hook = webhookReceiver(statuses);
  const timers = new FakeTimers();
  const board = createBoardOn(timers, url, {
    alerts: {
      evaluateEvery: EVERY_MS,
      sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: "s".repeat(32) }],
      rules: [rule],
    },
  });
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await board.fetch(
      new Request(`http://localhost/board/api${path}`, {
        method,
        headers: { "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
  const evaluatedAt = async () => (await api("GET", "/alerts")).body.asOf as number | null;
  return {
    timers,
    api,
    pass: () => alertPass(timers, EVERY_MS, evaluatedAt),
    history: async () => (await api("GET", "/alerts/history")).body.entries as AlertHistoryEntry[],
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

/** Three jobs of `flaky` failed for good by the App's real worker. */
async function threeFailed(world: AppWorld): Promise<void> {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push(await taskOf(world.app, "flaky").dispatch({ i }));
  for (const id of ids) await waitForState(world, id, "failed");
}

const FLAKY_FAILED: AlertRuleFile = {
  name: "flaky failed",
  kind: "failed",
  tasks: ["flaky"],
  threshold: 2,
  sinks: ["ops"],
};

Deno.test("a receiver answering 500, 500, then 200 gets a real failure's notice once, on the third try", async () => {
  await withApp("redis", (app) => steerable(app), async (world) => {
    const { timers, notices, history, close } = alertingBoard(world.url, FLAKY_FAILED, [
      500,
      500,
      200,
    ]);
    try {
      await threeFailed(world);
      // Each loop moves the board's clock a second: the pass, then the 1 s and 2 s backoffs.
      await waitFor(async () => (await timers.tick(1000), notices().length === 3), {
        what: "the third attempt",
      });
      const keys = notices().map((n) => n.key);
      assert.deepEqual(keys, [keys[0], keys[0], keys[0]], "one notice, tried three times");
      const [entry] = await waitFor(async () => {
        const entries = await history();
        return entries.length > 0 && entries;
      }, { what: "the notice's outcome in the history" });
      assert.deepEqual(entry.deliveries, [
        { sink: "ops", outcome: "delivered", attempts: 3, error: null },
      ]);
      // No repeat configured: further passes tell nothing.
      for (let pass = 0; pass < 3; pass++) await timers.tick(EVERY_MS);
      assert.equal(notices().length, 3);
      assert.equal((await history()).length, 1);
    } finally {
      await close();
    }
  });
});

Deno.test("a real failure is told again every repeat interval; a silence set through the API mutes it until it ends", async () => {
  await withApp("redis", (app) => steerable(app), async (world) => {
    const { pass, notices, history, api, close } = alertingBoard(world.url, {
      ...FLAKY_FAILED,
      repeat: 2 * EVERY_MS,
    });
    const passUntil = (what: string, done: () => boolean | Promise<boolean>) =>
      waitFor(async () => (await pass(), await done()), { what });
    try {
      await threeFailed(world);
      // A notice arrives beside the passes: on a loaded machine the repeat may come with it.
      await passUntil("the firing notice", () => notices().length >= 1);
      await passUntil("the repeat", () => notices().length >= 2);
      const [first, repeat] = notices();
      assert.deepEqual([repeat.repeat, repeat.key], [true, first.key]);
      assert.equal(repeat.at - first.at, 2 * EVERY_MS, "not told at the pass in between");

      const silence = await api("POST", "/alerts/silences", {
        scope: { rule: "flaky failed" },
        duration: "1m",
        reason: "deploying the fix",
      });
      assert.equal(silence.status, 201, JSON.stringify(silence.body));
      const muted = async () =>
        (await history()).filter((e) => e.silencedBy === silence.body.id).length;
      await passUntil("two muted repeats", async () => await muted() >= 2);
      assert.equal(notices().length, 2, "nothing sent while silenced");

      assert.equal((await api("DELETE", `/alerts/silences/${silence.body.id}`)).status, 200);
      await passUntil("the repeat after the silence", () => notices().length === 3);
      assert.deepEqual([notices()[2].repeat, notices()[2].key], [true, first.key]);
    } finally {
      await close();
    }
  });
});
