/**
 * The TaskSource contract for what holds a job back (`getJobHolds`): the
 * queue position (the wait list first, then the prioritized set), a
 * delayed job's run time and dispatch delay, a retrying job's attempt, an
 * active job without a lock, read alike from one keyspace by every source.
 */

import assert from "node:assert/strict";
import { readFixture } from "../helpers/fixture.ts";
import { type Seed, withQueuedBilling } from "./source_contract.ts";

/** The fixture's one active `slow` job (its dump holds no lock for it). */
const SLOW_ACTIVE = "485336b8-640e-4fb4-8639-b47005927994";

/** Registers the diagnosis contract tests for one source. */
export function diagnosisContract(name: string, seed: Seed): void {
  const dump = withQueuedBilling(readFixture());
  const runAt = (id: string) =>
    (dump.keys["taskora:{billing}:delayed"].value as { value: string; score: number }[])
      .find((member) => member.value === id)!.score;

  Deno.test(`${name}: a waiting job's place counts the wait list first, then the prioritized set`, async () => {
    const { source, close } = await seed(dump);
    try {
      const positions = await Promise.all(
        ["w1", "w2", "w3", "p-high", "p-low"].map(async (id) =>
          (await source.getJobHolds!(id))!.ahead
        ),
      );
      assert.deepEqual(positions, [0, 1, 2, 3, 4]);
      const w2 = (await source.getJobHolds!("w2"))!;
      assert.deepEqual([w2.state, w2.waiting, w2.runAt, w2.concurrency, w2.dedupKey], [
        "waiting",
        5,
        null,
        null,
        null,
      ]);
      assert.equal(await source.getJobHolds!("no-such-job"), null);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a delayed job's run time and dispatch delay; a retrying job's attempt`, async () => {
    const { source, close } = await seed(dump);
    try {
      const d1 = (await source.getJobHolds!("d1"))!;
      assert.deepEqual([d1.state, d1.runAt, d1.dispatchDelayMs, d1.ahead], [
        "delayed",
        runAt("d1"),
        1000,
        null,
      ]);
      const r1 = (await source.getJobHolds!("r1"))!;
      assert.deepEqual([r1.state, r1.runAt, r1.attempt, r1.maxAttempts, r1.dispatchDelayMs], [
        "retrying",
        runAt("r1"),
        2,
        3,
        null,
      ]);
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: an active job without a lock, among its task's active jobs`, async () => {
    const { source, close } = await seed(dump);
    try {
      const slow = (await source.getJobHolds!(SLOW_ACTIVE))!;
      assert.deepEqual([slow.state, slow.lock], ["active", { token: null, ttlMs: null }]);
      assert.deepEqual(slow.active, { count: 1, ids: [SLOW_ACTIVE], locked: 0 });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: a job's TTL and a cancel asked for while it runs`, async () => {
    const keys = { ...dump.keys };
    const hash = (key: string, fields: Record<string, string>) => {
      const stored = keys[key] as { type: "hash"; pttl: number; value: Record<string, string> };
      keys[key] = { ...stored, value: { ...stored.value, ...fields } };
    };
    hash("taskora:{billing}:w1", { expireAt: "1795345760000" });
    hash(`taskora:{slow}:${SLOW_ACTIVE}`, { cancelledAt: "1795345750000", cancelReason: "stop" });
    const { source, close } = await seed({ ...dump, keys });
    try {
      const [w1, w2, slow] = await Promise.all(
        ["w1", "w2", SLOW_ACTIVE].map(async (id) => (await source.getJobHolds!(id))!),
      );
      assert.deepEqual([w1.expireAt, w1.cancelRequested], [1795345760000, null]);
      assert.deepEqual([w2.expireAt, w2.cancelRequested], [null, null]);
      assert.deepEqual(slow.cancelRequested, { at: 1795345750000, reason: "stop" });
    } finally {
      await close();
    }
  });

  Deno.test(`${name}: the task's active jobs that hold a live lock are counted (busy workers, not gone ones)`, async () => {
    const lockKey = `taskora:{slow}:${SLOW_ACTIVE}:lock`;
    const locked = {
      ...dump,
      keys: { ...dump.keys, [lockKey]: { type: "string" as const, pttl: 30_000, value: "w-1" } },
    };
    const { source, close } = await seed(locked);
    try {
      const slow = (await source.getJobHolds!(SLOW_ACTIVE))!;
      assert.deepEqual(slow.active, { count: 1, ids: [SLOW_ACTIVE], locked: 1 });
    } finally {
      await close();
    }
  });
}
