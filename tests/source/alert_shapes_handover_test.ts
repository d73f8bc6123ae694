/**
 * The `newErrorGroup` rule across a change of leader, on a real Redis with
 * taskora's fixture keyspace: the error shapes the leader saw are kept under
 * the board's root, so the board that leads next tells a shape that appeared
 * while the lead passed over, and not the ones the last leader already knew.
 * Kept under the board's root, they expire 24 h after the last write.
 */

import assert from "node:assert/strict";
import { parseAlertsConfig } from "../../src/alerts/config.ts";
import { KNOWN_SHAPES_TTL_MS } from "../../src/contract/alerts.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { HANDOVER_EPOCH, startHandoverEvaluators } from "../helpers/handover_evaluators.ts";
import { readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { webhookReceiver } from "../helpers/webhook_receiver.ts";

const EVERY_MS = 5000;

/** Fails one more send-email job as taskora does: its hash, then the failed set. */
async function failSendEmail(url: string, id: string, error: string, at: number): Promise<void> {
  const client = await connectClient(url);
  try {
    await client.hSet(`taskora:{send-email}:${id}`, {
      ts: String(at - 50),
      _v: "1",
      attempt: "1",
      maxAttempts: "1",
      state: "failed",
      priority: "0",
      data: '{"to":"u9@x.io"}',
      processedOn: String(at - 20),
      error,
      finishedOn: String(at),
    });
    await client.zAdd("taskora:{send-email}:failed", { score: at, value: id });
  } finally {
    await client.close();
  }
}

Deno.test("the next leader tells an error shape that appeared while the lead passed over, and no shape the last leader knew", async () => {
  const redis = await startRedis();
  await writeKeyspace(redis.url, readFixture());
  const hook = webhookReceiver();
  const timers = new FakeTimers();
  const config = parseAlertsConfig({
    evaluateEvery: EVERY_MS,
    sinks: [{ name: "ops", type: "webhook", url: hook.url, secret: "s".repeat(32) }],
    rules: [{ name: "new errors", kind: "newErrorGroup", tasks: ["send-email"], sinks: ["ops"] }],
  });
  const { boards, handTo, close } = startHandoverEvaluators(redis.url, config, timers);
  const [a, b] = boards;
  const evaluated = async () => (await a.source.boardStore.readAlertStatus()).asOf;
  try {
    await waitFor(async () => (await timers.tick(EVERY_MS), await evaluated() !== null), {
      what: "board a's first pass: the dead letters' shapes were there before it looked",
    });
    // As the lead passes over (board a's dead-letter grouping is a few seconds old): a new kind
    // of error, which board b reads on its first pass.
    await failSendEmail(
      redis.url,
      "handover-1",
      "Recipient quota exceeded",
      HANDOVER_EPOCH + timers.now(),
    );
    handTo("board b");
    await waitFor(async () => (await timers.tick(EVERY_MS), !a.leadership.isLeading), {
      what: "the lease gone to board b",
    });
    const before = await evaluated();
    await waitFor(async () => (await timers.tick(EVERY_MS), await evaluated() !== before), {
      what: "board b's first pass as the leader",
    });
    await Promise.all(boards.map((board) => board.evaluator.close())); // its notices are kept
    const told = await b.source.boardStore.listAlertHistory(10);
    assert.deepEqual(
      told.map(({ notice }) => [notice.rule, notice.task, notice.state]),
      [["new errors", "send-email", "firing"]],
      "the shape that appeared during the handover is told, once; the fixture's are not",
    );
  } finally {
    await close();
    await hook.close();
    await redis.stop();
  }
});

/** A pass at 1000 that saw send-email's "SMTP timeout" shape. */
const SMTP_TIMEOUT_SEEN = {
  baselineAt: 1000,
  whole: false,
  seen: [{ task: "send-email", shape: "SMTP timeout", first: null, last: 1000 }],
  forgotten: [],
};

Deno.test("the known shapes are kept under the board's root and expire 24 h after the leader's last write", async () => {
  const redis = await startRedis();
  const source = createRedisSource({ url: redis.url });
  const client = await connectClient(redis.url);
  try {
    await source.boardStore.writeKnownShapes(SMTP_TIMEOUT_SEEN, 1000);
    const key = "taskora:board:alerts:shapes";
    assert.equal(await client.type(key), "hash");
    const ttl = await client.pTTL(key);
    assert.ok(ttl > KNOWN_SHAPES_TTL_MS - 60_000 && ttl <= KNOWN_SHAPES_TTL_MS, `${ttl} ms`);
  } finally {
    await client.close();
    await source.close();
    await redis.stop();
  }
});

Deno.test("the memory source's known shapes expire 24 h after the last write", async () => {
  const source = createMemorySource();
  try {
    await source.boardStore.writeKnownShapes(SMTP_TIMEOUT_SEEN, 1000);
    assert.notEqual(await source.boardStore.readKnownShapes(1000 + KNOWN_SHAPES_TTL_MS - 1), null);
    assert.equal(await source.boardStore.readKnownShapes(1000 + KNOWN_SHAPES_TTL_MS), null);
  } finally {
    await source.close();
  }
});
