/**
 * The `redis` rule across a real Redis outage: the leader tells "unreachable"
 * while its lease still holds, loses the lease while Redis is down, and once
 * Redis answers again tells "reachable again", whether Redis comes back with
 * its data or empty. The board's lease turns and passes run on fake timers;
 * Redis (stopped and started again) and the receiver are real.
 */

import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import { startAlertEvaluator } from "../../src/alerts/runner.ts";
import type { AlertNotice } from "../../src/contract/alerts.ts";
import { Leadership, leaseOf } from "../../src/leadership.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { namedLease } from "../helpers/named_lease.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";

const EVERY_MS = 5000;
/** Long enough that the first pass of the outage still leads, short beside the outage. */
const LEASE_MS = 30_000;
const SECRET = "s".repeat(32);

/**
 * A board evaluating a `redis` rule that tells the receiver at `hookUrl`,
 * on `timers`, leading as `leadershipOf` its source says.
 */
function startBoard(
  redisUrl: string,
  hookUrl: string,
  timers: FakeTimers,
  leadershipOf: (source: RedisTaskSource) => Leadership,
) {
  const source = new RedisTaskSource({ url: redisUrl, tasks: ["email"] }, timers);
  const leadership = leadershipOf(source);
  const evaluator = startAlertEvaluator({
    source,
    store: source.boardStore,
    config: parseAlertsConfig({
      evaluateEvery: EVERY_MS,
      sinks: [{ name: "ops", type: "webhook", url: hookUrl, secret: SECRET }],
      rules: [{ name: "store", kind: "redis", sinks: ["ops"] }],
    }),
    leadership,
    timers,
    clock: () => 1_800_000_000_000 + timers.now(),
  });
  return {
    source,
    leadership,
    close: async () => {
      await evaluator.close();
      await leadership.close();
      await source.close();
    },
  };
}

for (const keepData of [true, false]) {
  const comeback = keepData ? "with its data" : "empty";
  Deno.test(`"Redis unreachable" is told resolved when Redis comes back ${comeback}`, async () => {
    const redis = await startRedis();
    const hook = webhookReceiver();
    const timers = new FakeTimers();
    const board = startBoard(
      redis.url,
      hook.url,
      timers,
      (source) => new Leadership(leaseOf(source.boardStore, "board"), { timers, ttlMs: LEASE_MS }),
    );
    const { source, leadership } = board;
    const notices = () => hook.received.map(({ body }) => JSON.parse(body) as AlertNotice);
    try {
      await waitFor(
        async () => (await timers.tick(EVERY_MS),
          (await source.boardStore.readAlertStatus()).asOf !== null),
        { what: "a pass with Redis up, its states written" },
      );
      await redis.stop({ keepData });
      await timers.tick(EVERY_MS);
      await waitFor(() => notices().length === 1, { what: "the unreachable notice" });
      // The lease runs out while Redis is down: the board leads no more.
      await timers.tick(LEASE_MS);
      assert.equal(leadership.isLeading, false);
      await redis.start();
      await waitFor(async () => (await timers.tick(EVERY_MS), notices().length === 2), {
        what: "the resolve notice once Redis answers",
      });
      assert.deepEqual(notices().map((notice) => [notice.state, notice.summary]), [
        ["firing", "Redis: unreachable"],
        ["resolved", "Redis: reachable again"],
      ]);
      assert.equal(notices()[1].key, notices()[0].key, "the same incident");
      const { states } = await source.boardStore.readAlertStatus();
      assert.deepEqual(states.map((state) => [state.rule, state.phase]), [["store", "resolved"]]);
    } finally {
      await board.close();
      await hook.close();
      await redis.stop();
    }
  });
}

Deno.test("a board that lost the lead in the outage writes the states Redis missed: the next leader tells the resolve", async () => {
  const redis = await startRedis();
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  const { lease, handTo } = namedLease("a");
  const boards = ["a", "b"].map((holder) =>
    startBoard(
      redis.url,
      hook.url,
      timers,
      () => new Leadership(lease, { timers, holder, ttlMs: 1000 }),
    )
  );
  const [a, b] = boards;
  const notices = () => hook.received.map(({ body }) => JSON.parse(body) as AlertNotice);
  try {
    await waitFor(
      async () => (await timers.tick(EVERY_MS),
        (await a.source.boardStore.readAlertStatus()).asOf !== null),
      { what: "a's pass with Redis up, its states written" },
    );
    await redis.stop({ keepData: true });
    await timers.tick(EVERY_MS);
    await waitFor(() => notices().length === 1, { what: "a's unreachable notice" });
    // The lead passes to b before its next pass, and Redis is back before it too.
    handTo("b");
    await timers.tick(1000);
    assert.deepEqual([a.leadership.isLeading, b.leadership.isLeading], [false, true]);
    await redis.start();
    await waitFor(async () => {
      const answers = boards.map(({ source }) =>
        source.boardStore.readAlertStatus().then(() => true)
      );
      return (await Promise.all(answers).catch(() => [false])).every(Boolean);
    }, { what: "both boards' connections back" });
    await waitFor(async () => (await timers.tick(EVERY_MS), notices().length === 2), {
      what: "the resolve notice, from b",
    });
    assert.deepEqual(notices().map((notice) => [notice.state, notice.summary, notice.key]), [
      ["firing", "Redis: unreachable", notices()[0].key],
      ["resolved", "Redis: reachable again", notices()[0].key],
    ]);
    assert.equal(a.leadership.isLeading, false, "told by b: a leads no more");
  } finally {
    for (const board of boards) await board.close();
    await hook.close();
    await redis.stop();
  }
});
