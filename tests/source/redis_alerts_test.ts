/**
 * The alert evaluator on a real Redis, as two board processes: only the
 * leader evaluates and tells, the states it leaves in Redis keep the next
 * leader from telling again, and a retry of the failed jobs resolves the
 * alert. Each board's lease turns and passes run on its own fake timers;
 * Redis and the receiver are real.
 */

import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import { measure } from "../../src/alerts/figures.ts";
import { KnownShapes } from "../../src/alerts/known_shapes.ts";
import { readSnapshot } from "../../src/alerts/snapshot.ts";
import { type AlertEvaluator, startAlertEvaluator } from "../../src/alerts/runner.ts";
import type {
  AlertDelivery,
  AlertNotice,
  AlertPhase,
  AlertStatus,
} from "../../src/contract/alerts.ts";
import { Leadership, type Lease, leaseOf } from "../../src/leadership.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { ruleOf } from "../helpers/alert_snapshot.ts";
import { commandsOf, totalCalls } from "../helpers/command_stats.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";
import { writeFailedJobs } from "../helpers/wire_writer.ts";

const EVERY_MS = 5000;
const LEASE_MS = 1000;
/** How far a board's clock moves at once: less than a lease turn (a third of the lease). */
const STEP_MS = LEASE_MS / 4;

interface Process {
  source: RedisTaskSource;
  leadership: Leadership;
  timers: FakeTimers;
  evaluator: AlertEvaluator;
}

/** What the tests see of the boards, the receiver and what the evaluators told. */
interface Boards {
  boards: Process[];
  /** The notices the receiver got. */
  notices: () => AlertNotice[];
  /** The phase of the alert in the newest pass that wrote its states, either board's. */
  phase: () => AlertPhase | undefined;
  /** The deliveries that ended (answered, or failed for good), either board's. */
  delivered: () => AlertDelivery[];
  /** Holds the receiver's answers from now on, until {@link Boards.answer}. */
  holdAnswers: () => void;
  /** Lets the receiver answer what it holds, and what comes until the next hold. */
  answer: () => void;
}

/**
 * The lease in Redis, each answer handed over two macrotask turns late: as on
 * a loaded machine, later than the one turn a fake tick lets pass between two
 * timers.
 */
function lateLease(lease: Lease): Lease {
  return {
    hold: async (holder, ttlMs) => {
      const answer = await lease.hold(holder, ttlMs);
      await settle();
      await settle();
      return answer;
    },
    remaining: async () => {
      const left = await lease.remaining();
      await settle();
      await settle();
      return left;
    },
    release: (holder) => lease.release(holder),
  };
}

/** A Redis with three failed `email` jobs, a receiver, and two boards evaluating one rule. */
async function withBoards(fn: (ctx: Boards) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  let held = Promise.withResolvers<void>();
  held.resolve();
  const hook = webhookReceiver([200], () => held.promise);
  const statuses: AlertStatus[] = [];
  const delivered: AlertDelivery[] = [];
  const boards: Process[] = [];
  try {
    await writeFailedJobs(client as never, "email", 3);
    const config = parseAlertsConfig({
      evaluateEvery: EVERY_MS,
      boardUrl: "https://board.example/board",
      sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: "s".repeat(32) }],
      rules: [{
        name: "email failing",
        kind: "failed",
        tasks: ["email"],
        threshold: 2,
        sinks: ["ops"],
      }],
    });
    for (let i = 0; i < 2; i++) {
      const timers = new FakeTimers();
      const source = new RedisTaskSource({ url: redis.url, tasks: ["email"] }, timers);
      const leadership = new Leadership(lateLease(leaseOf(source.boardStore, "board")!), {
        timers,
        ttlMs: LEASE_MS,
      });
      const evaluator = startAlertEvaluator({
        source,
        store: source.boardStore,
        config,
        leadership,
        timers,
        clock: Date.now,
        onEvaluated: (status) => statuses.push(status),
        onDelivery: (delivery) => delivered.push(delivery),
      });
      boards.push({ source, leadership, timers, evaluator });
    }
    await fn({
      boards,
      notices: () => hook.received.map((r) => JSON.parse(r.body)),
      phase: () => statuses.at(-1)?.states.find((state) => state.task === "email")?.phase,
      delivered: () => delivered,
      holdAnswers: () => held = Promise.withResolvers(),
      answer: () => held.resolve(),
    });
  } finally {
    held.resolve();
    for (const board of boards) {
      await board.evaluator.close();
      await board.leadership.close();
      await board.source.close();
    }
    await hook.close();
    await client.close();
    await redis.stop();
  }
}

/**
 * Moves each board's clock on by one evaluation interval, in turn, a step at
 * a time, each step's lease turn answered before the clock moves on, as real
 * time waits for Redis. The whole interval in one tick went past a renewal
 * still in flight: the lease ran out on the board's clock before its pass,
 * and on a loaded machine no board ever led one.
 */
async function pass(boards: Process[]): Promise<void> {
  for (const board of boards) {
    for (let moved = 0; moved < EVERY_MS; moved += STEP_MS) {
      await board.timers.tick(STEP_MS);
      await board.leadership.turnSettled();
    }
  }
}

/**
 * Passes until a leader's pass finds the alert `phase` (its notice is then
 * on its way), and waits, moving no clock, until that notice's delivery
 * ends, the `delivered`th. The post's timeout is on the leader's clock: a
 * clock moved while the receiver held the answer timed the post out, and its
 * retry told the receiver twice.
 */
async function tell(
  ctx: Boards,
  boards: Process[],
  phase: AlertPhase,
  delivered: number,
): Promise<void> {
  ctx.holdAnswers();
  await waitFor(async () => (await pass(boards), ctx.phase() === phase), {
    what: `a pass finding the alert ${phase}`,
  });
  ctx.answer();
  await waitFor(() => ctx.delivered().length >= delivered, {
    what: `the ${phase} notice's delivery`,
  });
}

Deno.test("two boards: the leader tells a failing task once, and a retry resolves it", async () => {
  await withBoards(async (ctx) => {
    const { boards, notices } = ctx;
    await tell(ctx, boards, "firing", 1);
    for (let i = 0; i < 4; i++) await pass(boards);
    assert.equal(notices().length, 1, "told once, whoever leads");
    const [firing] = notices();
    assert.deepEqual(
      [firing.rule, firing.state, firing.task, firing.figure, firing.threshold, firing.link],
      ["email failing", "firing", "email", 3, 2, "https://board.example/board/tasks/email"],
    );

    await boards[0].source.retryAllFailed({ task: "email" });
    await tell(ctx, boards, "resolved", 2);
    for (let i = 0; i < 4; i++) await pass(boards);
    assert.deepEqual(notices().map((n) => [n.state, n.key]), [
      ["firing", firing.key],
      ["resolved", firing.key],
    ]);
    const history = await boards[1].source.boardStore.listAlertHistory(10);
    assert.deepEqual(
      history.map((e) => [e.notice.state, e.deliveries.map((d) => d.outcome)]),
      [["resolved", ["delivered"]], ["firing", ["delivered"]]],
    );
  });
});

Deno.test("a leader that dies while a rule fires: the next sends no duplicate, and still the resolve", async () => {
  await withBoards(async (ctx) => {
    const { boards: [first, second], notices } = ctx;
    await tell(ctx, [first], "firing", 1);
    // The first board stops dead: its timers never move again, so it never
    // renews its lease nor gives it back.
    await waitFor(async () => (await pass([second]), second.leadership.isLeading), {
      what: "the second board to take the lease over",
    });
    for (let i = 0; i < 4; i++) await pass([second]);
    assert.equal(notices().length, 1, "no duplicate after the takeover");

    await second.source.retryAllFailed({ task: "email" });
    await tell(ctx, [second], "resolved", 2);
    const [firing, resolved] = notices();
    assert.deepEqual([resolved.state, resolved.key], ["resolved", firing.key]);
  });
});

Deno.test("the redis rule reads the share of maxmemory in use", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const source = new RedisTaskSource({ url: redis.url, tasks: ["email"] }, new FakeTimers());
  try {
    const rule = (threshold: number) => ruleOf("redis", threshold);
    const figureAt = async (threshold: number) => {
      const snapshot = await readSnapshot(source, [rule(threshold)], Date.now());
      return measure(rule(threshold), snapshot, new KnownShapes(), Date.now())![0];
    };
    assert.equal((await figureAt(90)).figure, null, "no maxmemory, no share");
    await client.sendCommand(["CONFIG", "SET", "maxmemory", String(1 << 30)]);
    const info = await source.getStoreInfo();
    assert.equal(info.maxMemoryBytes, 1 << 30);
    // A few MB of a GB: a share above 0 and well below 1 % (used memory moves between reads).
    const measured = await figureAt(0);
    assert.ok(measured.figure! > 0 && measured.figure! < 1, String(measured.figure));
    assert.equal(measured.breached, true);
    assert.equal((await figureAt(90)).breached, false);
  } finally {
    await source.close();
    await client.close();
    await redis.stop();
  }
});

Deno.test("an evaluation pass costs Redis a fixed few commands plus a fixed few per task", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const rules = (["failed", "failureRate", "stalled", "scheduleMissed", "migrationLock"] as const)
    .map((kind) =>
      ruleOf(kind, 1, kind === "failureRate" ? { windowMs: 15 * 60_000, minFinished: 1 } : {})
    );
  /** The commands Redis runs (scripts' inner ones included, INFO not) for a pass over `n` tasks. */
  const passOver = async (n: number) => {
    await client.flushAll();
    const tasks = Array.from({ length: n }, (_, i) => `task-${i}`);
    for (const task of tasks) await writeFailedJobs(client as never, task, 1);
    const source = new RedisTaskSource({ url: redis.url, tasks }, new FakeTimers());
    try {
      // Connects, subscribes to the lock's channel, loads the scripts.
      await readSnapshot(source, rules, Date.now());
      await source.boardStore.writeAlertStates(await source.boardStore.readAlertStates());
      const calls = await commandsOf(client as never, async () => {
        // As the evaluator does: the states are written only if no other leader wrote since.
        const { asOf, states } = await source.boardStore.readAlertStatus();
        await readSnapshot(source, rules, Date.now());
        await source.boardStore.writeAlertStates(states, Date.now(), asOf);
      });
      // The migration lock's channel is subscribed to once per source, not per pass.
      calls.delete("subscribe");
      return totalCalls(calls);
    } finally {
      await source.close();
    }
  };
  try {
    const [ten, forty] = [await passOver(10), await passOver(40)];
    const perTask = (forty - ten) / 30;
    // Per task: the snapshot script (EVALSHA and the 8 reads it runs; with no active job it
    // looks at no lock, and `stalled` reads nothing more), its throughput minutes (EVALSHA,
    // the counters' MGET, the failed set's ZCOUNT over the window and, its job failed in it,
    // ZRANGEBYSCORE).
    assert.equal(perTask, 13);
    // Per pass: the states (GET; the write's EVALSHA, and the GET and SET it runs), the lock
    // (GET, PTTL); the schedules, unchanged, from the tracking connection's cache (none).
    assert.equal(ten - 10 * perTask, 6);
  } finally {
    await client.close();
    await redis.stop();
  }
});
