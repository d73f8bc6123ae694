/**
 * Retry-all and DLQ retry-all read taskora's migration lock before every
 * batch, as `/bulk` does: a lock taken while one runs stops it before its
 * next batch, and the answer is 503 `MIGRATION_IN_PROGRESS` with how many
 * jobs it had retried (`done`), the rest left failed. The lock is taken at
 * a set point, once the first batch is written, never after a delay.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { holdMigrationLock } from "../helpers/migration_lock.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeFailedJobs } from "../helpers/wire_writer.ts";

const TASK = "mend";
const FAILED = 2_500;
const keys = taskKeys(TASK);

/**
 * A board on a Redis holding {@link FAILED} failed jobs of {@link TASK},
 * whose source takes the migration lock the first time it is asked for the
 * lock after a job has left the failed set.
 */
async function withLockTakenAfterFirstBatch(
  body: (post: (path: string, json?: unknown) => Promise<Response>) => Promise<void>,
): Promise<{ failed: number; waiting: number }> {
  const redis = await startRedis();
  const admin = await connectClient(redis.url);
  await writeFailedJobs(admin, TASK, FAILED);
  const source = createRedisSource({ url: redis.url });
  const readLocks = source.readLocks.bind(source);
  source.readLocks = async (query) => {
    if (await admin.zCard(keys.failed) < FAILED) await holdMigrationLock(admin);
    return await readLocks(query);
  };
  const board = createBoard(source);
  try {
    await body(async (path, json = {}) =>
      await board.fetch(
        new Request(`http://board.test/board/api${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(json),
        }),
      )
    );
    const left = await admin.zCard(keys.failed);
    const waiting = await admin.lLen(keys.wait) + await admin.zCard(keys.prioritized);
    return { failed: left, waiting };
  } finally {
    await board.close();
    await source.close();
    admin.destroy();
    await redis.stop();
  }
}

async function assertStopped(response: Response, batch: number): Promise<void> {
  const body = await response.json();
  assert.equal(response.status, 503, JSON.stringify(body));
  assert.equal(body.code, "MIGRATION_IN_PROGRESS");
  assert.equal(body.done, batch, "the answer says how many were retried");
  assert.match(body.error, new RegExp(`${batch.toLocaleString("en-US")} jobs`));
}

Deno.test("a task's retry-all stops before the next batch once taskora's migration lock is taken", async () => {
  const after = await withLockTakenAfterFirstBatch(async (post) => {
    await assertStopped(await post(`/tasks/${TASK}/retry-all`), 1_000);
  });
  assert.deepEqual(after, { failed: FAILED - 1_000, waiting: 1_000 });
});

Deno.test("the DLQ's retry-all stops before the next batch once taskora's migration lock is taken", async () => {
  const after = await withLockTakenAfterFirstBatch(async (post) => {
    await assertStopped(await post("/dlq/retry-all"), 1_000);
  });
  assert.deepEqual(after, { failed: FAILED - 1_000, waiting: 1_000 });
});

Deno.test("the DLQ's retry of one error group stops before the next batch once the lock is taken", async () => {
  const after = await withLockTakenAfterFirstBatch(async (post) => {
    // Every job's error is "Connection timeout after <n> ms": one group.
    await assertStopped(
      await post(`/dlq/retry-all?task=${TASK}`, { pattern: "Connection timeout after <n> ms" }),
      100,
    );
  });
  assert.deepEqual(after, { failed: FAILED - 100, waiting: 100 });
});
