/**
 * An audit entry that cannot be written when it happens (a bulk operation
 * that ends while Redis is down) is kept in memory, bounded, and written
 * when Redis is back, saying when it happened: nothing is lost, nothing
 * grows without a bound.
 */

import assert from "node:assert/strict";
import type { AuditRecord } from "../../src/contract/audit.ts";
import { LATE_ENTRIES } from "../../src/audit/late.ts";
import { createAuditTrail } from "../../src/audit/trail.ts";
import { createMemoryBoardStore } from "../../src/store/memory/mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

function bulkEntry(action: string, at: number): AuditRecord {
  return {
    at,
    user: "ada",
    action,
    target: "op-1",
    task: "send-email",
    count: 300,
    outcome: "ok",
    status: 200,
    code: null,
    detail: "300 of 300 done, 0 skipped",
  };
}

/** A scheduler the test fires by hand. */
function manualTimers() {
  const due: (() => Promise<void>)[] = [];
  return {
    due,
    schedule(run: () => Promise<void>) {
      due.push(run);
      return () => {
        const at = due.indexOf(run);
        if (at >= 0) due.splice(at, 1);
      };
    },
  };
}

Deno.test("a bulk end entry written while Redis is down is written when it returns, marked late", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url });
  const timers = manualTimers();
  const trail = createAuditTrail(source.boardStore, 1_000, { schedule: timers.schedule });
  // The entry before, written by a board that waits the default 2 s: with 300 ms, on a loaded
  // machine it went unconfirmed too, was written late after the retry, and listed as the newer.
  const steady = createRedisSource({ url: redis.url });
  try {
    const before = createAuditTrail(steady.boardStore, 1_000, { schedule: timers.schedule });
    assert.notEqual(await before.append(bulkEntry("bulk.start", Date.now())), null, "confirmed");
    await redis.stop({ keepData: true });
    const endedAt = Date.now();
    assert.equal(await trail.append(bulkEntry("bulk.retry", endedAt)), null);
    assert.equal(trail.late, 1);
    assert.equal(timers.due.length, 1);
    await timers.due.shift()!();
    assert.equal(trail.late, 1, "still down: kept");
    assert.equal(timers.due.length, 1, "and tried again later");

    await redis.start();
    // The connection comes back by itself; each due attempt writes what it can.
    for (let tries = 0; trail.late > 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await timers.due.shift()?.();
    }
    assert.equal(trail.late, 0);
    assert.equal(timers.due.length, 0, "nothing left to try");
    const page = await trail.list({ limit: 10 });
    assert.deepEqual(page.entries.map((e) => [e.action, e.late]), [
      ["bulk.retry", endedAt],
      ["bulk.start", undefined],
    ]);
    assert.ok(page.entries[0].at >= endedAt);
  } finally {
    await source.close();
    await redis.stop();
  }
});

Deno.test("entries kept for a late write are bounded: past LATE_ENTRIES the oldest go, counted", async () => {
  const refusing = Object.assign(createMemoryBoardStore(), {
    appendAudit: () => Promise.reject(new Error("down")),
  });
  const timers = manualTimers();
  const trail = createAuditTrail(refusing, 1_000, { schedule: timers.schedule });
  for (let n = 0; n < LATE_ENTRIES + 50; n++) {
    assert.equal(await trail.append(bulkEntry("bulk.retry", n)), null);
  }
  assert.equal(trail.late, LATE_ENTRIES);
  assert.equal(trail.lost, 50);
  assert.equal(timers.due.length, 1, "one retry scheduled, not one per entry");
});

Deno.test("a late entry whose earlier attempts Redis applied unconfirmed is written once", async () => {
  const redis = await startRedis();
  // Replies past 300 ms are given up on: the writes held by the pause below are sent, unanswered.
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 300 });
  const timers = manualTimers();
  const trail = createAuditTrail(source.boardStore, 1_000, { schedule: timers.schedule });
  // The entry before, written by a board that waits the default 2 s: with 300 ms, on a loaded
  // machine it went unconfirmed too, was written late after the retry, and listed as the newer.
  const steady = createRedisSource({ url: redis.url });
  try {
    const before = createAuditTrail(steady.boardStore, 1_000, { schedule: timers.schedule });
    assert.notEqual(await before.append(bulkEntry("bulk.start", Date.now())), null, "confirmed");
    await withClient(redis.url, (admin) => admin.sendCommand(["CLIENT", "PAUSE", "1500", "WRITE"]));
    assert.equal(await trail.append(bulkEntry("bulk.retry", Date.now())), null, "unconfirmed");
    // Every attempt while the pause lasts is sent and held too: each one runs once it ends.
    await waitFor(async () => {
      await timers.due.shift()?.();
      return trail.late === 0;
    }, { what: "the late entry written" });
    const page = await trail.list({ limit: 10 });
    assert.deepEqual(page.entries.map((e) => e.action), ["bulk.retry", "bulk.start"]);
  } finally {
    await steady.close();
    await source.close();
    await redis.stop();
  }
});
