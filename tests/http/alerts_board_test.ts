/**
 * The alert evaluator inside a board: it runs only when rules exist, on the
 * board's timers, with nobody watching, and tells the rule's sinks.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";

function alertsTo(url: string, rules: AlertsFile["rules"]): AlertsFile {
  return {
    evaluateEvery: "15s",
    sinks: [{ name: "ops", type: "webhook", url, secret: "s".repeat(32) }],
    rules,
  };
}

Deno.test("a board evaluates its rules with nobody watching and tells the sink", async () => {
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(timers, source, {
    basePath: "/ops",
    alerts: alertsTo(hook.url, [
      { name: "mail failing", kind: "failed", tasks: ["send-email"], threshold: 4, sinks: ["ops"] },
    ]),
  });
  try {
    await waitFor(async () => (await timers.tick(15_000), hook.received.length > 0), {
      what: "the firing notice",
    });
    const notice = JSON.parse(hook.received[0].body);
    assert.deepEqual([notice.rule, notice.state, notice.task, notice.figure, notice.link], [
      "mail failing",
      "firing",
      "send-email",
      5,
      "/ops/tasks/send-email",
    ]);
    // The delivery's outcome is recorded once the receiver has answered: a moment after it got it.
    const history = await waitFor(async () => {
      const entries = await source.boardStore.listAlertHistory(5);
      return entries.length > 0 && entries;
    }, { what: "the notice in the history" });
    assert.deepEqual(history.map((entry) => entry.notice.key), [notice.key]);
  } finally {
    await board.close();
    await source.close();
    await hook.close();
  }
});

Deno.test("without rules or sinks for stored rules the evaluator is off: it sets no timer", async () => {
  const pendingWith = async (alerts?: AlertsFile) => {
    const timers = new FakeTimers();
    const source = createMemorySource();
    const board = createBoardOn(timers, source, alerts ? { alerts } : {});
    const pending = timers.pending;
    await board.close();
    await source.close();
    return pending;
  };
  const none = await pendingWith();
  assert.equal(await pendingWith({ sinks: [], rules: [] }), none);
  // Sinks alone: rules stored through the API may tell them.
  assert.equal(await pendingWith(alertsTo("http://127.0.0.1:9/hook", [])), none + 1);
  assert.equal(
    await pendingWith(alertsTo("http://127.0.0.1:9/hook", [
      { name: "b", kind: "backlog", threshold: 1, sinks: ["ops"] },
    ])),
    none + 1,
  );
});
