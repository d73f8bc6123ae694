/**
 * The TaskSource contract for the audit trail: `appendAudit` keeps about
 * `maxEntries` records, `listAudit` reads them newest first, filtered, a
 * page at a time with a cursor, on every BoardStore.
 */

import assert from "node:assert/strict";
import type { AuditRecord } from "../../src/contract/audit.ts";
import { auditRecord } from "../helpers/audit.ts";
import type { StoreSeed } from "./board_store_contract.ts";

const record = (n: number, fields: Partial<AuditRecord> = {}) =>
  auditRecord({ target: `job-${n}`, ...fields });

/** Registers the audit contract for the store `seed` makes. */
export function auditContract(name: string, seed: StoreSeed): void {
  Deno.test(`${name}: the audit trail reads newest first, a page at a time`, async () => {
    const { store, close } = await seed();
    try {
      for (let i = 1; i <= 5; i++) await store.appendAudit(record(1_000 * i), 1000);
      const first = await store.listAudit({ limit: 2 });
      assert.deepEqual(first.entries.map((e) => e.target), ["job-5000", "job-4000"]);
      assert.equal(first.entries[0].user, "ada");
      assert.equal(first.entries[0].id.split("-")[0], String(first.entries[0].at));
      assert.notEqual(first.next, null);
      const second = await store.listAudit({ limit: 10, before: first.next! });
      assert.deepEqual(second.entries.map((e) => e.target), ["job-3000", "job-2000", "job-1000"]);
      assert.equal(second.next, null);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the audit trail filters by user, action, task, outcome and time`, async () => {
    const { store, close } = await seed();
    try {
      const pause = () => new Promise((resolve) => setTimeout(resolve, 2));
      await store.appendAudit(record(1_000, { user: "bob" }), 1000);
      await pause();
      const second = await store.appendAudit(
        record(2_000, { action: "task.clean", task: "image" }),
        1000,
      );
      const third = await store.appendAudit(
        record(3_000, { outcome: "error", code: "INVALID_STATE" }),
        1000,
      );
      await pause();
      await store.appendAudit(record(4_000), 1000);
      const targets = async (query: Parameters<typeof store.listAudit>[0]) =>
        (await store.listAudit(query)).entries.map((e) => e.target);
      assert.deepEqual(await targets({ limit: 10, user: "bob" }), ["job-1000"]);
      assert.deepEqual(await targets({ limit: 10, action: "task.clean" }), ["job-2000"]);
      assert.deepEqual(await targets({ limit: 10, task: "image" }), ["job-2000"]);
      assert.deepEqual(await targets({ limit: 10, outcome: "error" }), ["job-3000"]);
      assert.deepEqual(await targets({ limit: 10, from: second.at, to: third.at }), [
        "job-3000",
        "job-2000",
      ]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the audit trail keeps about maxEntries`, async () => {
    const { store, close } = await seed();
    try {
      for (let i = 1; i <= 1_500; i++) await store.appendAudit(record(i), 100);
      const page = await store.listAudit({ limit: 1000 });
      // MAXLEN ~ trims whole stream nodes: at least 100 stay, never the 1,500.
      assert.ok(
        page.entries.length >= 100 && page.entries.length < 1_500,
        `${page.entries.length}`,
      );
      assert.equal(page.entries[0].target, "job-1500");
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the audit trail trims entries older than maxAgeMs, and a late write once`, async () => {
    const { store, close } = await seed();
    try {
      await store.appendAudit(record(1, { at: Date.now() }), 1000);
      await new Promise((resolve) => setTimeout(resolve, 2)); // the next entry a millisecond on
      const kept = await store.appendAudit(record(2, { at: Date.now() }), 1000, "actions", {
        maxAgeMs: 1,
        key: "k-2",
      });
      assert.deepEqual((await store.listAudit({ limit: 10 })).entries.map((e) => e.target), [
        "job-2",
      ]);
      // A late write of the same record, its first attempt applied unconfirmed: no twin.
      const again = await store.appendAudit(record(2), 1000, "actions", {
        key: "k-2",
        once: true,
      });
      assert.equal(again.id, kept.id);
      const other = await store.appendAudit(record(3), 1000, "actions", {
        key: "k-3",
        once: true,
      });
      assert.notEqual(other.id, kept.id);
      assert.deepEqual((await store.listAudit({ limit: 10 })).entries.map((e) => e.target), [
        "job-3",
        "job-2",
      ]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the audit trail's logs are apart, and an entry can be removed`, async () => {
    const { store, close } = await seed();
    try {
      const action = await store.appendAudit(record(1), 100);
      for (let i = 2; i <= 400; i++) {
        await store.appendAudit(record(i, { outcome: "error", count: null }), 100, "refusals");
      }
      const actions = await store.listAudit({ limit: 1000 });
      assert.deepEqual(actions.entries.map((e) => e.target), ["job-1"]);
      const refusals = await store.listAudit({ limit: 1000 }, "refusals");
      assert.equal(refusals.entries[0].target, "job-400");
      assert.ok(refusals.entries.length < 399, "capped on its own");
      await store.removeAudit(action.id);
      assert.deepEqual((await store.listAudit({ limit: 10 })).entries, []);
    } finally {
      await close();
    }
  });
}
