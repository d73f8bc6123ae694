/**
 * The BoardStore contract for the alerts' memory in the store: the states
 * the evaluator leaves (read back whole by the next leader, capped) and the
 * history of notices with their outcome (newest first, capped), and the
 * error shapes `newErrorGroup` saw (updated by each pass, capped, cut).
 */

import assert from "node:assert/strict";
import type { AlertHistoryEntry, AlertState } from "../../src/contract/alerts.ts";
import {
  KNOWN_SHAPE_CHARS,
  type KnownShape,
  type KnownShapesRecord,
  MAX_ALERT_STATES,
  MAX_KNOWN_SHAPES,
} from "../../src/contract/alerts.ts";
import type { StoreSeed } from "./board_store_contract.ts";

function state(subject: string, extra: Partial<AlertState> = {}): AlertState {
  return {
    rule: "mail failing",
    subject,
    task: subject,
    phase: "firing",
    pendingSince: 1000,
    firingSince: 2000,
    resolvedAt: null,
    figure: 7,
    notifiedAt: 2000,
    ...extra,
  };
}

function entry(key: string, outcome: "delivered" | "failed"): AlertHistoryEntry {
  return {
    notice: {
      rule: "mail failing",
      kind: "failed",
      state: "firing",
      key,
      task: "mail",
      figure: 7,
      threshold: 5,
      unit: "count",
      since: 2000,
      at: 2000,
      repeat: false,
      link: "https://board.example/board/tasks/mail",
      summary: "mail: failed is 7, above 5",
    },
    deliveries: [{
      sink: "ops",
      outcome,
      attempts: 4,
      error: outcome === "failed" ? "HTTP 500" : null,
    }],
    silencedBy: null,
  };
}

/** Registers the alert store contract for the store `seed` makes. */
export function alertStoreContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: alert states are read back as written, replaced whole`, async () => {
    const { store, close } = await seed();
    try {
      assert.deepEqual(await store.readAlertStates(), []);
      const states = [state("mail"), state("pay", { phase: "pending", firingSince: null })];
      await store.writeAlertStates(states);
      assert.deepEqual(await store.readAlertStates(), states);
      await store.writeAlertStates([state("sms", { phase: "resolved", resolvedAt: 3000 })]);
      assert.deepEqual((await store.readAlertStates()).map((s) => s.subject), ["sms"]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: alert states are read back with when they were evaluated`, async () => {
    const { store, close } = await seed();
    try {
      assert.deepEqual(await store.readAlertStatus(), { asOf: null, states: [] });
      await store.writeAlertStates([state("mail")], 5000);
      assert.deepEqual(await store.readAlertStatus(), { asOf: 5000, states: [state("mail")] });
      // With the rules the pass evaluated: another board's rules are not among them.
      const evaluated = ["mail failing", "backlog"];
      const lockSeen = { lock: "migrating", at: 5500 };
      await store.writeAlertStates([state("mail")], 6000, undefined, { evaluated, lockSeen });
      assert.deepEqual(await store.readAlertStatus(), {
        asOf: 6000,
        states: [state("mail")],
        evaluated,
        lockSeen,
      });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a leader's states are written only while no other leader wrote since its read`, async () => {
    const { store, close } = await seed();
    try {
      // Both leaders read an empty store; the new one writes first.
      assert.equal(await store.writeAlertStates([state("mail")], 5000, null), true);
      assert.equal(await store.writeAlertStates([state("pay")], 4000, null), false);
      assert.deepEqual(await store.readAlertStatus(), { asOf: 5000, states: [state("mail")] });
      // Going on from the stored states, a pass writes.
      assert.equal(await store.writeAlertStates([state("sms")], 6000, 5000), true);
      assert.equal(await store.writeAlertStates([state("pay")], 6500, 5000), false);
      assert.deepEqual((await store.readAlertStatus()).asOf, 6000);
      // Without a condition, as before.
      assert.equal(await store.writeAlertStates([], 7000), true);
      assert.deepEqual(await store.readAlertStatus(), { asOf: 7000, states: [] });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: alert states beyond the cap are refused, not half written`, async () => {
    const { store, close } = await seed();
    try {
      const many = Array.from({ length: MAX_ALERT_STATES + 1 }, (_, i) => state(`t${i}`));
      await assert.rejects(() => store.writeAlertStates(many), /at most 10000/);
      assert.deepEqual(await store.readAlertStates(), []);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the alert history keeps the newest entries, newest first, capped`, async () => {
    const { store, close } = await seed();
    try {
      assert.deepEqual(await store.listAlertHistory(10), []);
      await store.appendAlertHistory([entry("a", "delivered"), entry("b", "failed")], 3);
      await store.appendAlertHistory([entry("c", "delivered"), entry("d", "failed")], 3);
      const history = await store.listAlertHistory(10);
      assert.deepEqual(history.map((e) => e.notice.key), ["d", "c", "b"]);
      assert.deepEqual(history[0], entry("d", "failed"), "kept whole, outcome included");
      assert.deepEqual((await store.listAlertHistory(1)).map((e) => e.notice.key), ["d"]);
    } finally {
      await close();
    }
  });

  /** The shapes of `record` in one order (Redis answers a hash's fields in its own). */
  const sorted = (record: KnownShapesRecord | null) =>
    record &&
    { ...record, shapes: record.shapes.toSorted((a, b) => a.shape.localeCompare(b.shape)) };
  const shape = (text: string, first: number | null, last: number): KnownShape => ({
    task: "send-email",
    shape: text,
    first,
    last,
  });

  Deno.test(`${name}: known error shapes: none until a leader writes, then each pass's change`, async () => {
    const { store, close } = await seed();
    try {
      assert.equal(await store.readKnownShapes(1000), null);
      const baseline = [shape("SMTP timeout", null, 1000), shape("Mailbox full", null, 1000)];
      const change = { baselineAt: 1000, whole: false, forgotten: [] };
      assert.equal(await store.writeKnownShapes({ ...change, seen: baseline }, 1000), 2);
      assert.deepEqual(sorted(await store.readKnownShapes(2000)), {
        baselineAt: 1000,
        shapes: [baseline[1], baseline[0]],
      });
      // The next pass: one seen again, one new, one forgotten.
      const next = [shape("SMTP timeout", null, 6000), shape("Disk full", 6000, 6000)];
      const forgotten = [{ task: "send-email", shape: "Mailbox full" }];
      assert.equal(await store.writeKnownShapes({ ...change, seen: next, forgotten }, 6000), 2);
      assert.deepEqual(sorted(await store.readKnownShapes(7000)), {
        baselineAt: 1000,
        shapes: [next[1], next[0]],
      });
      // A whole write replaces what is kept.
      const whole = [shape("Quota exceeded", 9000, 9000)];
      assert.equal(
        await store.writeKnownShapes({ ...change, whole: true, seen: whole }, 9000),
        1,
      );
      assert.deepEqual(await store.readKnownShapes(9000), { baselineAt: 1000, shapes: whole });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: known error shapes are cut to their length cap, and more than the cap refused`, async () => {
    const { store, close } = await seed();
    try {
      const long = "x".repeat(KNOWN_SHAPE_CHARS + 50);
      const change = { baselineAt: 1000, whole: false, forgotten: [] };
      await store.writeKnownShapes({ ...change, seen: [shape(long, 1000, 1000)] }, 1000);
      const [kept] = (await store.readKnownShapes(1000))!.shapes;
      assert.equal(kept.shape, long.slice(0, KNOWN_SHAPE_CHARS));
      const many = Array.from({ length: MAX_KNOWN_SHAPES + 1 }, (_, i) => shape(`e${i}`, 1, 1));
      await assert.rejects(
        () => store.writeKnownShapes({ ...change, seen: many }, 1000),
        /at most 5000 error shapes/,
      );
      assert.equal((await store.readKnownShapes(1000))!.shapes.length, 1, "nothing half written");
    } finally {
      await close();
    }
  });
}
