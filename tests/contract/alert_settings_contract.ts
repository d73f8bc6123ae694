/**
 * The BoardStore contract for what operators set for the alerts through the
 * API: the stored rules (unique names, capped) and the silences (capped;
 * the ended ones dropped when one is added).
 */

import assert from "node:assert/strict";
import type { AlertRule, AlertSilence } from "../../src/contract/alerts.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import type { StoreSeed } from "./board_store_contract.ts";

function rule(name: string, threshold = 10): AlertRule {
  return ruleOf("backlog", threshold, { name, tasks: ["send-email"] });
}

function silence(id: string, until: number, createdAt = 1000): AlertSilence {
  return { id, scope: { task: "send-email" }, until, author: "ada", reason: "deploy", createdAt };
}

/** Registers the alert settings contract for the store `seed` makes. */
export function alertSettingsContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: stored alert rules are created once, replaced, removed`, async () => {
    const { store, close } = await seed();
    try {
      assert.deepEqual(await store.listAlertRules(), []);
      assert.equal(await store.saveAlertRule(rule("b"), "create", 200), "saved");
      assert.equal(await store.saveAlertRule(rule("a"), "create", 200), "saved");
      assert.equal(await store.saveAlertRule(rule("a", 99), "create", 200), "exists");
      assert.equal(await store.saveAlertRule(rule("c"), "replace", 200), "missing");
      assert.equal(await store.saveAlertRule(rule("a", 5), "replace", 200), "saved");
      assert.deepEqual(await store.listAlertRules(), [rule("a", 5), rule("b")]);
      assert.equal(await store.removeAlertRule("a"), true);
      assert.equal(await store.removeAlertRule("a"), false);
      assert.deepEqual(await store.listAlertRules(), [rule("b")]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: no rule is stored beyond the cap; a replace still is`, async () => {
    const { store, close } = await seed();
    try {
      assert.equal(await store.saveAlertRule(rule("a"), "create", 2), "saved");
      assert.equal(await store.saveAlertRule(rule("b"), "create", 2), "saved");
      assert.equal(await store.saveAlertRule(rule("c"), "create", 2), "full");
      assert.equal(await store.saveAlertRule(rule("b", 3), "replace", 2), "saved");
      assert.deepEqual((await store.listAlertRules()).map((r) => r.name), ["a", "b"]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: silences are kept oldest first, capped, the ended ones dropped on add`, async () => {
    const { store, close } = await seed();
    try {
      assert.deepEqual(await store.listAlertSilences(), []);
      assert.equal(await store.addAlertSilence(silence("s1", 5000, 1), 1000, 2), true);
      assert.equal(await store.addAlertSilence(silence("s2", 9000, 2), 1000, 2), true);
      assert.equal(await store.addAlertSilence(silence("s3", 9000, 3), 1000, 2), false, "full");
      assert.deepEqual((await store.listAlertSilences()).map((s) => s.id), ["s1", "s2"]);
      // At 6000 s1 has ended: it makes room.
      assert.equal(await store.addAlertSilence(silence("s3", 9000, 3), 6000, 2), true);
      assert.deepEqual(await store.listAlertSilences(), [
        silence("s2", 9000, 2),
        silence("s3", 9000, 3),
      ]);
      assert.equal(await store.removeAlertSilence("s2"), true);
      assert.equal(await store.removeAlertSilence("s2"), false);
      assert.deepEqual((await store.listAlertSilences()).map((s) => s.id), ["s3"]);
    } finally {
      await close();
    }
  });
}
