/**
 * The TaskSource contract for what operators set for the alerts through the
 * API: the stored rules (unique names, capped) and the silences (capped;
 * the ended ones dropped when one is added).
 */

import assert from "node:assert/strict";
import type { AlertRule, AlertSilence } from "../../src/contract/alerts.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";

function rule(name: string, threshold = 10): AlertRule {
  return ruleOf("backlog", threshold, { name, tasks: ["send-email"] });
}

function silence(id: string, until: number, createdAt = 1000): AlertSilence {
  return { id, scope: { task: "send-email" }, until, author: "ada", reason: "deploy", createdAt };
}

/** Registers the alert settings contract for the source `seed` makes. */
export function alertSettingsContract(name: string, seed: Seed): void {
  const dump = readFixture();

  Deno.test(`${name}: stored alert rules are created once, replaced, removed`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.deepEqual(await source.listAlertRules!(), []);
      assert.equal(await source.saveAlertRule!(rule("b"), "create", 200), "saved");
      assert.equal(await source.saveAlertRule!(rule("a"), "create", 200), "saved");
      assert.equal(await source.saveAlertRule!(rule("a", 99), "create", 200), "exists");
      assert.equal(await source.saveAlertRule!(rule("c"), "replace", 200), "missing");
      assert.equal(await source.saveAlertRule!(rule("a", 5), "replace", 200), "saved");
      assert.deepEqual(await source.listAlertRules!(), [rule("a", 5), rule("b")]);
      assert.equal(await source.removeAlertRule!("a"), true);
      assert.equal(await source.removeAlertRule!("a"), false);
      assert.deepEqual(await source.listAlertRules!(), [rule("b")]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: no rule is stored beyond the cap; a replace still is`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.equal(await source.saveAlertRule!(rule("a"), "create", 2), "saved");
      assert.equal(await source.saveAlertRule!(rule("b"), "create", 2), "saved");
      assert.equal(await source.saveAlertRule!(rule("c"), "create", 2), "full");
      assert.equal(await source.saveAlertRule!(rule("b", 3), "replace", 2), "saved");
      assert.deepEqual((await source.listAlertRules!()).map((r) => r.name), ["a", "b"]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: silences are kept oldest first, capped, the ended ones dropped on add`, async () => {
    const { source, close } = await seed(dump);
    try {
      assert.deepEqual(await source.listAlertSilences!(), []);
      assert.equal(await source.addAlertSilence!(silence("s1", 5000, 1), 1000, 2), true);
      assert.equal(await source.addAlertSilence!(silence("s2", 9000, 2), 1000, 2), true);
      assert.equal(await source.addAlertSilence!(silence("s3", 9000, 3), 1000, 2), false, "full");
      assert.deepEqual((await source.listAlertSilences!()).map((s) => s.id), ["s1", "s2"]);
      // At 6000 s1 has ended: it makes room.
      assert.equal(await source.addAlertSilence!(silence("s3", 9000, 3), 6000, 2), true);
      assert.deepEqual(await source.listAlertSilences!(), [
        silence("s2", 9000, 2),
        silence("s3", 9000, 3),
      ]);
      assert.equal(await source.removeAlertSilence!("s2"), true);
      assert.equal(await source.removeAlertSilence!("s2"), false);
      assert.deepEqual((await source.listAlertSilences!()).map((s) => s.id), ["s3"]);
    } finally {
      await close();
    }
  });
}
