/**
 * The audit trail keeps refusals apart from actions: each in its own capped
 * log, refusals at most a few a minute per client (a bounded table of
 * clients), and reads show both newest first, or either one by `outcome`.
 */

import assert from "node:assert/strict";
import type { AuditRecord } from "../../src/contract/audit.ts";
import { createAuditTrail } from "../../src/audit/trail.ts";
import {
  ACTIONS_PER_MINUTE,
  ClientLimit,
  LIMIT_CLIENTS,
  REFUSALS_PER_MINUTE,
  REFUSALS_PER_MINUTE_IN_ALL,
} from "../../src/audit/client_limit.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import { auditRecord } from "../helpers/audit.ts";

const record = (fields: Partial<AuditRecord> = {}) => auditRecord({ at: 1_000, ...fields });

const refusal = (fields: Partial<AuditRecord> = {}) =>
  record({ outcome: "error", count: null, status: 404, code: "JOB_NOT_FOUND", ...fields });

Deno.test("refusals cannot push actions out of the trail", async () => {
  let now = 1_000;
  const trail = createAuditTrail(createMemoryBoardStore(), 100, { now: () => now });
  await trail.append(record({ action: "schedule.resume", target: "nightly" }));
  for (let n = 0; n < 5_000; n++) {
    now += 10; // 100 a second from many clients: the limit is not what saves the action here
    await trail.append(refusal({ target: `junk-${n}` }), `client-${n % 500}`);
  }
  const actions = await trail.list({ limit: 200, outcome: "ok" });
  assert.deepEqual(actions.entries.map((e) => e.target), ["nightly"]);
  const refusals = await trail.list({ limit: 200, outcome: "error" });
  assert.equal(refusals.entries.length, 100, "the refusals' own log is capped too");
});

Deno.test("a client's refusals are recorded at most REFUSALS_PER_MINUTE a minute, the rest counted", async () => {
  let now = 0;
  const trail = createAuditTrail(createMemoryBoardStore(), 10_000, { now: () => now });
  for (let n = 0; n < 1_000; n++) await trail.append(refusal({ target: `a-${n}` }), "10.0.0.1");
  await trail.append(refusal({ target: "b-0" }), "10.0.0.2");
  let page = await trail.list({ limit: 200, outcome: "error" });
  assert.equal(page.entries.length, REFUSALS_PER_MINUTE + 1, "the other client still gets in");
  assert.equal(page.entries[0].target, "b-0");

  now += 60_000;
  await trail.append(refusal({ target: "a-late" }), "10.0.0.1");
  page = await trail.list({ limit: 1, outcome: "error" });
  assert.equal(page.entries[0].target, "a-late");
  assert.equal(page.entries[0].dropped, 1_000 - REFUSALS_PER_MINUTE);
});

Deno.test("refusals of many clients together are recorded at most REFUSALS_PER_MINUTE_IN_ALL a minute", async () => {
  let now = 0;
  const trail = createAuditTrail(createMemoryBoardStore(), 10_000, { now: () => now });
  // 2,000 addresses, one refusal each: each within its own limit, the flood not.
  for (let n = 0; n < 2_000; n++) await trail.append(refusal({ target: `x-${n}` }), `ip-${n}`);
  const page = await trail.list({ limit: 200, outcome: "error" });
  assert.equal(page.entries[0].target, `x-${REFUSALS_PER_MINUTE_IN_ALL - 1}`);
  now += 60_000;
  await trail.append(refusal({ target: "next-minute" }), "ip-1999");
  assert.equal((await trail.list({ limit: 1, outcome: "error" })).entries[0].dropped, 1);
});

Deno.test("a user's mutations past ACTIONS_PER_MINUTE a minute are refused (429) before they act", async () => {
  let now = 0;
  const trail = createAuditTrail(createMemoryBoardStore(), 10_000, { now: () => now });
  const started = record({ outcome: "pending", count: null });
  for (let n = 0; n < ACTIONS_PER_MINUTE; n++) await trail.begin(started, "user:vera");
  await assert.rejects(trail.begin(started, "user:vera"), { code: "TOO_MANY_ATTEMPTS" });
  await trail.begin(started, "user:ada"); // another user is not held back
  const written = (await trail.list({ limit: 1_000, outcome: "pending" })).entries.length;
  assert.equal(written, ACTIONS_PER_MINUTE + 1, "the refused one wrote no entry");
  now += 60_000;
  await trail.begin(started, "user:vera");
});

Deno.test("entries older than maxAgeMs are trimmed, whatever the cap", async () => {
  let now = 1_000;
  const trail = createAuditTrail(createMemoryBoardStore(), 10_000, {
    now: () => now,
    maxAgeMs: 3_600_000,
  });
  await trail.append(record({ target: "old", at: now }));
  now += 3_600_001;
  await trail.append(record({ target: "new", at: now }));
  assert.deepEqual((await trail.list({ limit: 10 })).entries.map((e) => e.target), ["new"]);
});

Deno.test("actions are never rate-limited", async () => {
  const trail = createAuditTrail(createMemoryBoardStore(), 10_000, { now: () => 0 });
  for (let n = 0; n < 200; n++) await trail.append(record({ target: `job-${n}` }), "10.0.0.1");
  assert.equal((await trail.list({ limit: 200 })).entries.length, 200);
});

Deno.test("the table of clients is bounded: the oldest client is forgotten first", () => {
  const limit = new ClientLimit({ perMinute: REFUSALS_PER_MINUTE, now: () => 0 });
  for (let n = 0; n < LIMIT_CLIENTS * 3; n++) limit.take(`client-${n}`);
  assert.equal(limit.size, LIMIT_CLIENTS);
});

Deno.test("a page of both logs is newest first, and its cursor misses nothing", async () => {
  let now = 1_000;
  const trail = createAuditTrail(createMemoryBoardStore(), 1_000, { now: () => now });
  const order: string[] = [];
  for (let n = 0; n < 30; n++) {
    // Some in the same millisecond in both logs: the same id in each.
    if (n % 3 !== 0) now++;
    const name = `t-${n}`;
    order.unshift(name);
    await trail.append(
      n % 2 ? refusal({ target: name, at: now }) : record({ target: name, at: now }),
    );
  }
  const seen: string[] = [];
  let before: string | undefined;
  do {
    const page = await trail.list({ limit: 4, before });
    seen.push(...page.entries.map((e) => e.target));
    before = page.next ?? undefined;
  } while (before);
  assert.deepEqual(seen.toSorted(), order.toSorted());
  assert.equal(new Set(seen).size, 30, "no entry twice");
});
