/**
 * A bulk operation that ends while Redis is down: its end entry
 * (`bulk.retry`, failed, with what it did) is kept in the board's memory and
 * written when Redis is back, saying when it happened. The trail's retry is
 * driven by hand: no test waits for a timer.
 */

import { OwnChanges } from "../../src/feed/own_changes.ts";
import assert from "node:assert/strict";
import { createAuditTrail } from "../../src/audit/trail.ts";
import { createApi } from "../../src/api/mod.ts";
import { createLatencySampler } from "../../src/samplers/latency.ts";
import { Leadership } from "../../src/leadership.ts";
import { Operations } from "../../src/bulk/operations.ts";
import { operationHooks } from "../../src/bulk/hooks.ts";
import { ScanSlots } from "../../src/scans/slots.ts";
import { createPresenter } from "../../src/contract/present.ts";
import { createEventHub } from "../../src/events/hub.ts";
import { resolveOptions } from "../../src/options.ts";
import { systemTimers } from "../../src/timers.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";

Deno.test("a bulk operation ending while Redis is down gets its end entry once Redis returns, marked late", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const source = createRedisSource({ url: redis.url });
  const due: (() => Promise<void>)[] = [];
  const audit = createAuditTrail(source.boardStore, 1_000, {
    schedule: (run) => {
      due.push(run);
      return () => due.splice(due.indexOf(run), 1);
    },
  });
  const options = resolveOptions({});
  const present = createPresenter(options);
  const events = createEventHub(source, present, { statsIntervalMs: 60_000 });
  const operations = new Operations(
    operationHooks({ source, store: source.boardStore, options, present, events, audit }),
  );
  const api = createApi({
    source,
    store: source.boardStore,
    options,
    present,
    startedAt: Date.now(),
    timers: systemTimers,
    clock: Date.now,
    events,
    audit,
    latency: createLatencySampler(source),
    leadership: new Leadership(null),
    feed: null,
    history: null,
    throughput: null,
    ownChanges: new OwnChanges(Date.now),
    operations,
    scans: new ScanSlots(source.boardStore, { timers: systemTimers }),
  });
  try {
    const started = await api.request("/bulk", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "retry", selector: { task: "send-email", state: "failed" } }),
    });
    assert.equal(started.status, 202);
    const { operation } = await started.json();
    // Killed before the operation's first step (which waits for the next turn of the loop).
    await redis.stop();
    await operations.close();
    const ended = (await operations.get(operation.id))!;
    assert.equal(ended.status, "failed");
    assert.equal(ended.errorCode, "STORE_UNAVAILABLE");
    assert.equal(audit.late, 1, "the end entry waits in memory");
    assert.equal(due.length, 1);

    await redis.start();
    await loadFixture(redis.url);
    // The connection comes back by itself; each due attempt writes what it can.
    for (let tries = 0; audit.late > 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await due.shift()?.();
    }
    assert.equal(audit.late, 0);
    const { entries } = await audit.list({ limit: 10 });
    assert.deepEqual(entries.map((e) => [e.action, e.target, e.outcome, e.code, e.count]), [
      ["bulk.retry", operation.id, "error", "STORE_UNAVAILABLE", 0],
    ]);
    assert.equal(entries[0].late, ended.finishedAt);
    assert.ok(entries[0].at >= ended.finishedAt!);
  } finally {
    audit.close();
    await events.close();
    await source.close();
    await redis.stop();
  }
});
