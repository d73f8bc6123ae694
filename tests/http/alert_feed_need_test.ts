/**
 * An alert rule is a need of the change feed: a board with rules keeps the
 * leader's live state, which its passes read (two store reads) instead of
 * every task; with no rule, no browser and no request, the feed stays off.
 * On a memory source and fake timers, nothing else asking.
 */

import assert from "node:assert/strict";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { alertPass } from "../helpers/alert_pass.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";

const EVERY_MS = 10_000;

function alertsWith(rules: AlertsFile["rules"]): AlertsFile {
  return {
    evaluateEvery: "10s",
    sinks: [{
      name: "ops",
      type: "webhook",
      url: "http://127.0.0.1:9/never",
      secret: "a-webhook-secret-of-32-characters",
    }],
    rules,
  };
}

/** A board with `alerts` on a memory source, nobody else asking. */
async function withBoard(
  alerts: AlertsFile,
  fn: (ctx: {
    source: ReturnType<typeof createMemorySource>;
    timers: FakeTimers;
    evaluatedAt: () => Promise<number | null>;
  }) => Promise<void>,
): Promise<void> {
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const board = createBoardOn(timers, source, { alerts, history: false });
  const evaluatedAt = async () => (await source.boardStore.readAlertStatus()).asOf;
  try {
    await fn({ source, timers, evaluatedAt });
  } finally {
    await board.close();
    await source.close();
  }
}

Deno.test("a board with an alert rule runs the change feed: its passes read the live state", async () => {
  const rule = { name: "huge backlog", kind: "backlog" as const, threshold: 1e6, sinks: ["ops"] };
  await withBoard(alertsWith([rule]), async ({ source, timers, evaluatedAt }) => {
    assert.equal(await source.boardStore.feed!.hasFeedDemand(), false);
    await alertPass(timers, EVERY_MS, evaluatedAt);
    assert.equal(
      await source.boardStore.feed!.hasFeedDemand(),
      true,
      "the pass noted the feed's need",
    );
    const summary = await waitFor(async () => {
      await timers.tick(1_000);
      return await source.boardStore.feed!.readLiveSummary();
    }, { what: "the leader's live state" });
    assert.ok(summary.index.tasks.length > 0);
    // A later pass reads its figures from there, not every task's counts (the feed's own
    // passes read a slice of its sweep each second: one task of these few).
    const every = summary.index.tasks.length;
    assert.ok(every > 1, `${every} tasks`);
    let everyTaskReads = 0;
    const read = source.getQueueSnapshots.bind(source);
    source.getQueueSnapshots = (tasks) => {
      if (tasks.length === every) everyTaskReads++;
      return read(tasks);
    };
    await alertPass(timers, EVERY_MS, evaluatedAt);
    assert.equal(everyTaskReads, 0, "the pass read no task's counts");
  });
});

Deno.test("with no alert rule, no browser and no request, the change feed stays off", async () => {
  await withBoard(alertsWith([]), async ({ source, timers }) => {
    await timers.tick(65_000);
    assert.equal(await source.boardStore.feed!.hasFeedDemand(), false);
    assert.equal(await source.boardStore.feed!.readLiveSummary(), null);
  });
});
