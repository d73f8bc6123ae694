/**
 * The BoardStore contract for bulk operations (`store.operations`): every
 * store keeps the per-store limit of running operations, fences saves by
 * the runner's lease, hands a lapsed or given-back operation to one
 * claimer with its cursor, flags a cancel, and trims finished operations to
 * the newest `keep` within `keepMs`.
 */

import assert from "node:assert/strict";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import type {
  OperationLimits,
  OperationStore,
  StoredOperation,
} from "../../src/store/operation_store.ts";
import type { StoreSeed } from "./board_store_contract.ts";

const LIMITS: OperationLimits = { maxRunning: 2, keep: 20, keepMs: 3_600_000 };
const NOW = 1_800_000_000_000;

function stored(id: string, runner: string, leaseUntil = NOW + 10_000): StoredOperation {
  const operation: BulkOperation = {
    id,
    task: "send-email",
    action: "retry",
    selection: { ids: 2 },
    user: "ada",
    runner,
    status: "running",
    total: 2,
    scanned: null,
    done: 0,
    skipped: 0,
    skippedJobs: [],
    signalled: 0,
    startedAt: NOW,
    finishedAt: null,
    error: null,
    errorCode: null,
  };
  return {
    operation,
    selector: { task: "send-email", ids: ["a", "b"] },
    reason: null,
    cursor: { ids: 0 },
    cancelRequested: false,
    leaseUntil,
  };
}

function ended(operation: BulkOperation, finishedAt: number): BulkOperation {
  return { ...operation, status: "done", done: 2, finishedAt };
}

/** Registers the operation store contract for the store `seed` makes. */
export function operationContract(name: string, seed: StoreSeed): void {
  function contract(title: string, body: (store: OperationStore) => Promise<void>) {
    Deno.test(`${name}: operations ${title}`, async () => {
      const { store, close } = await seed();
      try {
        assert.ok(store.operations, "the store keeps operations where every board sees them");
        await body(store.operations);
      } finally {
        await close();
      }
    });
  }

  contract("are created up to the running limit, and read back whole", async (store) => {
    assert.equal(await store.create(stored("op-1", "r1"), LIMITS, NOW), true);
    assert.equal(await store.create(stored("op-2", "r1"), LIMITS, NOW), true);
    assert.equal(await store.create(stored("op-3", "r2"), LIMITS, NOW), false, "two run already");
    assert.deepEqual(await store.get("op-1"), stored("op-1", "r1"));
    assert.equal(await store.get("op-3"), null);
    assert.deepEqual((await store.list()).map((op) => op.id).sort(), ["op-1", "op-2"]);
  });

  contract("save only for the lease holder, and never after the end", async (store) => {
    const first = stored("op-1", "r1");
    await store.create(first, LIMITS, NOW);
    const progress = {
      operation: { ...first.operation, done: 1 },
      cursor: { ids: 100 },
    };
    const save = { runner: "r1", leaseUntil: NOW + 20_000, progress, limits: LIMITS, now: NOW };
    assert.deepEqual(await store.save("op-1", save), { held: true, cancelRequested: false });
    assert.deepEqual(await store.save("op-1", { ...save, runner: "r2" }), {
      held: false,
      cancelRequested: false,
    });
    const read = await store.get("op-1");
    assert.equal(read?.operation.done, 1);
    assert.deepEqual(read?.cursor, { ids: 100 });
    assert.equal(read?.leaseUntil, NOW + 20_000);

    const end = { operation: ended(first.operation, NOW + 1), cursor: { ids: 200 } };
    assert.equal((await store.save("op-1", { ...save, leaseUntil: 0, progress: end })).held, true);
    assert.equal((await store.save("op-1", save)).held, false, "an ended operation is not written");
    assert.equal((await store.get("op-1"))?.operation.status, "done");
    // Its slot is free: two more run.
    assert.equal(await store.create(stored("op-2", "r1"), LIMITS, NOW), true);
    assert.equal(await store.create(stored("op-3", "r1"), LIMITS, NOW), true);
  });

  contract("flag a cancel the runner reads with its next save", async (store) => {
    await store.create(stored("op-1", "r1"), LIMITS, NOW);
    assert.equal((await store.cancel("op-1"))?.status, "running");
    assert.equal((await store.get("op-1"))?.cancelRequested, true);
    const lease = await store.save("op-1", {
      runner: "r1",
      leaseUntil: NOW + 20_000,
      progress: null,
      limits: LIMITS,
      now: NOW,
    });
    assert.deepEqual(lease, { held: true, cancelRequested: true });
    assert.equal(await store.cancel("nope"), null);
  });

  contract("hand a lapsed lease to one claimer, with its cursor", async (store) => {
    await store.create(stored("op-1", "r1", NOW + 10_000), LIMITS, NOW);
    assert.deepEqual(await store.claim("r2", NOW + 5_000, NOW + 15_000), {
      running: 1,
      claimed: null,
    });
    const claim = await store.claim("r2", NOW + 10_001, NOW + 20_001);
    assert.equal(claim.running, 1);
    assert.equal(claim.claimed?.from, "r1");
    assert.equal(claim.claimed?.stored.operation.runner, "r2");
    assert.deepEqual(claim.claimed?.stored.cursor, { ids: 0 });
    assert.deepEqual(claim.claimed?.stored.selector, { task: "send-email", ids: ["a", "b"] });
    assert.equal(
      (await store.claim("r3", NOW + 10_002, NOW + 20_002)).claimed,
      null,
      "one claimer",
    );
    assert.equal((await store.get("op-1"))?.operation.runner, "r2");
    const save = {
      runner: "r1",
      leaseUntil: NOW + 30_000,
      progress: null,
      limits: LIMITS,
      now: NOW,
    };
    assert.equal((await store.save("op-1", save)).held, false, "the old runner is fenced off");
  });

  contract("take a given-back operation at once", async (store) => {
    await store.create(stored("op-1", "r1"), LIMITS, NOW);
    const save = { runner: "r1", leaseUntil: 0, progress: null, limits: LIMITS, now: NOW };
    assert.equal((await store.save("op-1", save)).held, true);
    assert.equal((await store.claim("r2", NOW, NOW + 10_000)).claimed?.from, "r1");
  });

  contract("keep the newest finished ones within keepMs", async (store) => {
    const limits = { maxRunning: 2, keep: 2, keepMs: 60_000 };
    for (let i = 1; i <= 4; i++) {
      const op = stored(`op-${i}`, "r1");
      await store.create(op, limits, NOW + i);
      const end = { operation: ended(op.operation, NOW + i), cursor: { ids: 2 } };
      await store.save(op.operation.id, {
        runner: "r1",
        leaseUntil: 0,
        progress: end,
        limits,
        now: NOW + i,
      });
    }
    assert.deepEqual((await store.list()).map((op) => op.id).sort(), ["op-3", "op-4"]);
    // A minute later, the next end trims both.
    const late = stored("op-5", "r1");
    await store.create(late, limits, NOW + 70_000);
    assert.deepEqual((await store.list()).map((op) => op.id), ["op-5"]);
  });
}
