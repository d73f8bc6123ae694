/**
 * The alert kinds measured from what a source gives (`readSnapshot`), the
 * same on every source: the fixture's `send-email` has 5 failed jobs, 10
 * completed and 5 failed in its last minutes of throughput, errors of two
 * shapes; its `heartbeat` schedule is long overdue, `nightly-report` is due
 * tonight, `weekly-cleanup` is paused.
 */

import assert from "node:assert/strict";
import { measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import type { AlertRule } from "../../src/contract/alerts.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

const MINUTE = 60_000;

/** `[subject, figure rounded, breached]` of `rule` on `source` now. */
async function measured(source: TaskSource, rule: AlertRule, shapes = new KnownShapes()) {
  const now = Date.now();
  const snapshot = await readSnapshot(source, [rule], now);
  return measure(rule, snapshot, shapes, now)?.map((m) => [m.subject, m.figure, m.breached]);
}

/** Registers the alert snapshot contract for the source `seed` makes. */
export function alertSnapshotContract(name: string, seed: Seed): void {
  const dump = readFixture();
  const mail = { tasks: ["send-email"] };

  Deno.test(`${name}: alert kinds read counts, throughput and error shapes of a task`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.deepEqual(await measured(source, ruleOf("failed", 4, mail)), [
        ["send-email", 5, true],
      ]);
      const rate = ruleOf("failureRate", 30, { ...mail, windowMs: 60 * MINUTE, minFinished: 15 });
      assert.deepEqual(await measured(source, rate), [["send-email", 33.33, true]]);
      assert.deepEqual(
        await measured(source, { ...rate, minFinished: 16 }),
        [["send-email", 33.33, false]],
        "fewer finished than the rule asks",
      );
      assert.deepEqual(await measured(source, ruleOf("stalled", 0, mail)), [
        ["send-email", 0, false],
      ]);
      assert.deepEqual(
        await measured(source, ruleOf("stalled", 0, { tasks: ["slow"] })),
        [["slow", 1, true]],
        "the fixture's one active slow job holds no lock",
      );
      const shapes = new KnownShapes();
      const group = ruleOf("newErrorGroup", 0, mail);
      assert.deepEqual(await measured(source, group, shapes), [["send-email", 0, false]]);
      assert.equal(shapes.size, 2, "SMTP timeout, Mailbox full");
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: reruns counts the jobs taskora's stall check put back in the last 15 min`, async () => {
    const now = Date.now();
    const entry = (at: number, fields: Record<string, string>) => ({
      id: `${at}-0`,
      fields: { jobId: `job-${at}`, ...fields },
    });
    const recovered = { event: "stalled", count: "1", action: "recovered" };
    const events = [
      entry(now - 20 * MINUTE, recovered), // before the window
      entry(now - 10 * MINUTE, recovered),
      entry(now - 9 * MINUTE, { event: "active" }),
      entry(now - 5 * MINUTE, { event: "stalled", count: "2", action: "failed" }),
      entry(now - MINUTE, recovered),
    ];
    const { source, close } = await seed({
      ...dump,
      keys: { ...dump.keys, "taskora:{sync}:events": { type: "stream", pttl: -1, value: events } },
    });
    try {
      assert.deepEqual(await measured(source, ruleOf("reruns", 1, { tasks: ["sync", "report"] })), [
        ["report", 0, false],
        ["sync", 2, true],
      ]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: scheduleMissed reads the schedules, a paused one never misses`, async () => {
    const { source, close } = await seed(dump);
    try {
      const result = await measured(
        source,
        ruleOf("scheduleMissed", MINUTE, { tasks: ["report"] }),
      );
      assert.deepEqual(
        result?.map(([schedule, , breached]) => [schedule, breached]).sort(),
        [["heartbeat", true], ["nightly-report", false], ["weekly-cleanup", false]],
      );
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the store kinds: Redis answers, no migration lock is held`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.deepEqual(await measured(source, ruleOf("redis", 90)), [[null, null, false]]);
      assert.deepEqual(await measured(source, ruleOf("migrationLock", MINUTE)), [[null, 0, false]]);
    } finally {
      await close();
    }
  });
}
