/**
 * The `migrationLock` rule on a lock that does not say when it started (a
 * payload without a numeric `startedAt`, or not JSON), on a real Redis: the
 * figure counts from when a board first saw the lock, and a board that
 * leads next counts from that same moment (it is kept with the states).
 */

import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import type { AlertNotice } from "../../src/contract/alerts.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { startHandoverEvaluators } from "../helpers/handover_evaluators.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";

const EVERY_MS = 10_000;
const LOCK_KEY = "taskora:migration:lock";

for (
  const [what, payload] of [
    ["not JSON", "migrating, do not touch"],
    ["JSON without a numeric startedAt", JSON.stringify({ by: "ops", startedAt: "today" })],
  ]
) {
  Deno.test(`migrationLock fires on a lock whose payload is ${what}, counted from when it was first seen, across a new leader`, async () => {
    const redis = await startRedis();
    await withClient(redis.url, (client) => client.set(LOCK_KEY, payload, { PX: 600_000 }));
    const hook = webhookReceiver();
    const timers = new FakeTimers();
    const config = parseAlertsConfig({
      evaluateEvery: EVERY_MS,
      sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: "s".repeat(32) }],
      rules: [{ name: "lock held", kind: "migrationLock", threshold: "1m", sinks: ["ops"] }],
    });
    const { boards, handTo, close } = startHandoverEvaluators(redis.url, config, timers);
    const [a] = boards;
    const evaluated = async () => (await a.source.boardStore.readAlertStatus()).asOf;
    /** One pass of whoever leads: the tick, then its states written. */
    const pass = async () => {
      const before = await evaluated();
      await waitFor(async () => (await timers.tick(EVERY_MS), await evaluated() !== before), {
        what: "a pass",
      });
    };
    try {
      await pass();
      // When board a first saw it, as kept with the states (under load the wait above may tick
      // twice before a pass's write shows, so the newest pass's time is not the first sight).
      const firstSeenAt = (await a.source.boardStore.readAlertStatus()).lockSeen?.at;
      assert.ok(firstSeenAt !== undefined, "board a noted when it first saw the lock");
      await pass();
      handTo("board b");
      await waitFor(async () => (await timers.tick(EVERY_MS), !a.leadership.isLeading), {
        what: "the lease gone to board b",
      });
      // Board b has not seen the lock before; a minute after board a first saw it, it fires.
      for (let i = 0; i < 8 && hook.received.length === 0; i++) await pass();
      await waitFor(() => hook.received.length > 0, { what: "the firing notice" });
      const notice: AlertNotice = JSON.parse(hook.received[0].body);
      assert.deepEqual([notice.rule, notice.state], ["lock held", "firing"]);
      assert.equal(notice.at - notice.figure!, firstSeenAt, "held since board a first saw it");
    } finally {
      await close();
      await hook.close();
      await redis.stop();
    }
  });
}
