/**
 * Dead-letter groups are made from the errors as the board shows them:
 * with `redact`, two failures that differ only in a redacted value (letters,
 * which the error pattern keeps) are one group, and no group, filter,
 * retry or export answers anything that depends on the value. On the memory
 * source and on a real Redis.
 */

import assert from "node:assert/strict";
import { createBoardOn } from "../../src/board.ts";
import { auditEntries } from "../helpers/audit.ts";
import { createBoard } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { MemorySource } from "../../src/source/memory/mod.ts";
import { MemoryStore } from "../../src/source/memory/store.ts";
import type { TaskSource } from "../../src/source/types.ts";

const TASK = "login";
const SECRETS = ["opensesame", "letmein"];
const errorWith = (token: string) => JSON.stringify({ token, reason: "denied" });
/** The one group both failures fall in, as shown. */
const SHOWN_PATTERN = JSON.stringify({ token: "[REDACTED]", reason: "denied" });

async function assertNoSecretDecides(source: TaskSource | string): Promise<void> {
  const board = createBoard(source, { redact: ["token"] });
  const call = (path: string, method = "GET", body?: unknown) =>
    Promise.resolve(board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: { origin: "http://board.test", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    ));
  try {
    const page = await call("/dlq");
    assert.equal(page.status, 200);
    const text = await page.text();
    for (const secret of SECRETS) assert.ok(!text.includes(secret), text);
    const { groups } = JSON.parse(text);
    assert.deepEqual(
      groups.map((group: { pattern: string; sample: string; count: number }) => [
        group.pattern,
        group.sample,
        group.count,
      ]),
      [[SHOWN_PATTERN, SHOWN_PATTERN, 2]],
    );

    const pattern = encodeURIComponent(SHOWN_PATTERN);
    const filtered = await (await call(`/dlq?pattern=${pattern}`)).json();
    assert.equal(filtered.total, 2);
    const byRawPattern =
      await (await call(`/dlq?pattern=${encodeURIComponent(errorWith(SECRETS[0]))}`))
        .json();
    assert.equal(byRawPattern.total, 0, "a raw error's pattern names no group");

    const exported = await call(`/dlq/export?format=ndjson&pattern=${pattern}`);
    assert.equal((await exported.text()).trim().split("\n").length, 2);

    const retried = await call("/dlq/retry-all", "POST", { pattern: errorWith(SECRETS[1]) });
    assert.deepEqual(await retried.json(), { ok: true, retried: 0 });
    const group = await call("/dlq/retry-all", "POST", { pattern: SHOWN_PATTERN });
    assert.deepEqual(await group.json(), { ok: true, retried: 2 });
    // The trail is written after the answer: the board closes once it holds the retry.
    await waitFor(
      async () => (await auditEntries(board)).some((entry) => entry.action === "dlq.retry-all"),
      { what: "the retry's audit entry" },
    );
  } finally {
    await board.close();
  }
}

/** A memory source holding one failed job per secret, each failed as a worker fails it. */
function failedLogins(): MemorySource {
  const store = new MemoryStore();
  for (const [i, token] of SECRETS.entries()) {
    store.enqueue(TASK, { id: `job-${i}`, data: null });
    store.claim(TASK);
    store.fail(TASK, `job-${i}`, errorWith(token), null);
  }
  return new MemorySource(store);
}

Deno.test("memory: dead-letter groups, filter, export and retry follow the errors as shown", async () => {
  const source = failedLogins();
  try {
    await assertNoSecretDecides(source);
  } finally {
    await source.close();
  }
});

Deno.test("the alerts keep the error shapes as shown, no redacted value", async () => {
  const source = failedLogins();
  const timers = new FakeTimers();
  const board = createBoardOn(timers, source, {
    redact: ["token"],
    alerts: {
      evaluateEvery: "15s",
      sinks: [{ name: "ops", type: "webhook", url: "http://127.0.0.1:9/", secret: "s".repeat(32) }],
      rules: [{ name: "new errors", kind: "newErrorGroup", tasks: [TASK], sinks: ["ops"] }],
    },
  });
  try {
    const known = await waitFor(
      async () => (await timers.tick(15_000),
        await source.boardStore.readKnownShapes(timers.now())),
      { what: "the first pass's known shapes" },
    );
    assert.deepEqual(known.shapes.map(({ task, shape }) => [task, shape]), [[TASK, SHOWN_PATTERN]]);
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("redis: dead-letter groups, filter, export and retry follow the errors as shown", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  try {
    for (const [i, token] of SECRETS.entries()) {
      await writeJob(client, {
        task: TASK,
        id: `job-${i}`,
        state: "failed",
        error: errorWith(token),
        finishedOn: 1_000 + i,
      });
    }
    await assertNoSecretDecides(redis.url);
  } finally {
    await client.close();
    await redis.stop();
  }
});
