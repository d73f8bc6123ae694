/**
 * The bulk operation runner: steps of at most 100, a cap on operations
 * running at once, cancel between steps, progress after steps, a failure
 * reported with its code, finished operations kept bounded, and a filter's
 * walk over the search's slices.
 */

import assert from "node:assert/strict";
import type { MatchReader } from "../../src/bulk/filter.ts";
import { bulkSelector, type FilterSelection } from "../../src/bulk/selector.ts";
import {
  type OperationHooks,
  Operations,
  type OperationsOptions,
  type OperationSpec,
} from "../../src/bulk/operations.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { OperationTable } from "../../src/store/operation_store.ts";
import type { BoardStore } from "../../src/store/types.ts";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import { BoardError } from "../../src/errors.ts";
import type {
  BulkStep,
  BulkStepResult,
  SearchPosition,
  TaskSource,
} from "../../src/source/types.ts";

/** A source whose steps each wait for `release()` when `gated`, and act on every job. */
function fakeSource(gated = false) {
  const steps: BulkStep[] = [];
  let open: (() => void)[] = [];
  const source = {
    bulkStep(_task: string, _action: string, step: BulkStep): Promise<BulkStepResult> {
      steps.push(step);
      const ids = "ids" in step ? step.ids : Array.from(
        { length: Math.min(step.limit, step.most, 250 - step.offset) },
        (_, i) => `j${i}`,
      );
      const result = {
        examined: ids.length,
        kept: 0,
        signalled: 0,
        done: ids.filter((id) => id !== "gone").map((id) => ({ id, from: "failed" as const })),
        skipped: ids.filter((id) => id === "gone").map((id) => ({ id, state: null })),
      };
      if (!gated) return Promise.resolve(result);
      return new Promise((resolve) => open.push(() => resolve(result)));
    },
  } as unknown as TaskSource;
  return {
    source,
    steps,
    /** Lets every step run from now on. */
    open() {
      gated = false;
      this.release();
    },
    release() {
      const waiting = open;
      open = [];
      for (const go of waiting) go();
    },
  };
}

/** Cancels operation `id` while its first step waits at `gate`, then lets that step finish. */
async function cancelDuringFirstStep(
  operations: Operations,
  gate: ReturnType<typeof fakeSource>,
  id: string,
): Promise<BulkOperation | null> {
  while (gate.steps.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
  const cancelling = operations.cancel(id);
  gate.release();
  return await cancelling;
}

/**
 * The operations of a board on `source`, on fake timers (nothing runs in the
 * background), kept in `store` (default: a table of its own).
 */
function board(
  source: TaskSource,
  options: OperationsOptions = {},
  store: Pick<BoardStore, "operations" | "shared"> = {
    operations: new OperationTable(),
    shared: false,
  },
  hooks: Partial<OperationHooks> = {},
) {
  const finished: BulkOperation[] = [];
  const progress: BulkOperation[] = [];
  const operations = new Operations({
    source,
    store,
    parse: (selector, action) => bulkSelector(selector, action, []),
    matches: () => {
      throw new Error("each filter selection brings its reader");
    },
    onProgress: (operation) => progress.push(operation),
    onFinish: (operation) => finished.push(operation),
    onTakeover: () => {},
    following: () => false,
    onStart: () => {},
    ...hooks,
  }, { timers: new FakeTimers(), ...options });
  /** The end of the `n`th operation to finish. */
  const done = (n = 0) =>
    new Promise<BulkOperation>((resolve) => {
      const check = () => finished.length > n ? resolve(finished[n]) : setTimeout(check, 1);
      check();
    });
  return { operations, finished, progress, done };
}

function spec(overrides: Partial<OperationSpec> = {}): OperationSpec {
  return {
    action: "retry",
    selector: { task: "t", state: "failed" },
    total: 250,
    user: "ops",
    ...overrides,
  };
}

Deno.test("Operations runs a whole state in steps of at most 100 until the count at start", async () => {
  const { source, steps } = fakeSource();
  const { operations, progress, done } = board(source, { progressEveryMs: 0 });
  const started = await operations.start(spec());
  assert.equal(started.status, "running");
  const report = await done();
  assert.deepEqual(
    steps.map((s) => "most" in s ? [s.limit, s.most] : []),
    [[100, 250], [100, 150], [100, 50]],
  );
  assert.equal(report.status, "done");
  assert.equal(report.done, 250);
  assert.equal(progress.at(-1)?.status, "done");
  assert.ok(progress.length >= 3, "progress after each step, and the end");
  assert.deepEqual(await operations.get(started.id), report);
  await operations.close();
});

Deno.test("Operations reports named jobs it skipped", async () => {
  const { source } = fakeSource();
  const { operations, done } = board(source);
  await operations.start(spec({ selector: { task: "t", ids: ["a", "gone", "b"] }, total: 3 }));
  const report = await done();
  assert.equal(report.done, 2);
  assert.deepEqual(report.skippedJobs, [{ id: "gone", state: null }]);
  await operations.close();
});

Deno.test("Operations refuses more than maxRunning at once, and cancels between steps", async () => {
  const gate = fakeSource(true);
  const { operations, done } = board(gate.source, { maxRunning: 1 });
  const running = await operations.start(spec());
  await assert.rejects(
    () => operations.start(spec()),
    (error: BoardError) =>
      error.code === "INVALID_STATE" && /at most 1 at once/.test(error.message),
  );
  const cancelled = await cancelDuringFirstStep(operations, gate, running.id);
  assert.equal(cancelled?.status, "cancelled");
  assert.equal(cancelled?.done, 100, "the step under way finished, no other began");
  assert.equal(gate.steps.length, 1);
  // Its slot is free again.
  gate.open();
  await operations.start(spec());
  assert.equal((await done(1)).status, "done");
  await operations.close();
});

Deno.test("Operations reports a failed step with its code", async () => {
  const source = {
    bulkStep: () => Promise.reject(new BoardError("STORE_UNAVAILABLE", "Redis is down")),
  } as unknown as TaskSource;
  const { operations, done } = board(source);
  await operations.start(spec());
  const report = await done();
  await operations.close();
  assert.equal(report.status, "failed");
  assert.equal(report.errorCode, "STORE_UNAVAILABLE");
  assert.equal(report.error, "Redis is down");
});

Deno.test("Operations stops when taskora's migration lock is taken", async () => {
  const { source, steps } = fakeSource();
  const locked = {
    ...source,
    bulkStep: source.bulkStep,
    readLocks: () =>
      Promise.resolve({ reason: null, by: null, startedAt: null, expiresInMs: null }),
  } as unknown as TaskSource;
  const { operations, done } = board(locked);
  await operations.start(spec());
  const report = await done();
  await operations.close();
  assert.equal(report.errorCode, "MIGRATION_IN_PROGRESS");
  assert.equal(steps.length, 0);
});

Deno.test("Operations keeps only the newest finished operations", async () => {
  const timers = new FakeTimers();
  const { operations, done } = board(fakeSource().source, { keep: 2, timers });
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) {
    ids.push((await operations.start(spec({ total: 1 }))).id);
    await done(i);
    // Each starts a millisecond after the last ended: the list is newest first.
    await timers.tick(1);
  }
  assert.deepEqual((await operations.list()).map((o) => o.id), [ids[3], ids[2]]);
  assert.equal(await operations.get(ids[0]), null);
  await operations.close();
});

Deno.test("Operations looks at full batches when few jobs are left among members it passes over", async () => {
  // 250 members, one of them (the last) in the selected state: the rest stay in place.
  const steps: BulkStep[] = [];
  const source = {
    bulkStep(_task: string, _action: string, step: BulkStep): Promise<BulkStepResult> {
      steps.push(step);
      if ("ids" in step) throw new Error("a state was selected");
      const members = Array.from({ length: 250 }, (_, i) => i).slice(
        step.offset,
        step.offset + step.limit,
      );
      const match = members.filter((i) => i === 249).slice(0, step.most);
      return Promise.resolve({
        examined: members.length,
        kept: members.length - match.length,
        signalled: 0,
        done: match.map((i) => ({ id: `j${i}`, from: "delayed" as const })),
        skipped: [],
      });
    },
  } as unknown as TaskSource;
  const { operations, done } = board(source);
  await operations.start(spec({ selector: { task: "t", state: "delayed" }, total: 1 }));
  const report = await done();
  await operations.close();
  assert.equal(report.done, 1);
  assert.equal(steps.length, 3, "three batches of 100, not one step per member");
});

/** The jobs of `state` whose id starts with "m", as a bulk selector's filter selects them. */
function idPrefixSelection(state: "waiting" | "failed"): FilterSelection {
  return {
    task: "t",
    state,
    filter: { from: null, to: null, idPrefix: "m", payload: null, masked: [] },
    query: { id: "m" },
  };
}

Deno.test("Operations walks a filter's matches slice by slice, moving the cursor back by what left", async () => {
  const { source, steps } = fakeSource();
  const { operations, progress, done } = board(source, { progressEveryMs: 0 });
  // Three slices of a waiting list: 250 ids each looked at, the first 120 of each matching.
  const reads: (SearchPosition | null)[] = [];
  const matches: MatchReader = (position) => {
    reads.push(position);
    const at = position?.at ?? 0;
    const next = reads.length < 3 ? { at: at + 250, skip: 0, scanned: 250 * reads.length } : null;
    return Promise.resolve({
      ids: Array.from({ length: 120 }, (_, i) => `m${reads.length}-${i}`),
      scanned: 250,
      total: 750,
      next,
    });
  };
  const started = await operations.start(spec({
    action: "cancel",
    selector: idPrefixSelection("waiting"),
    total: 750,
    matches,
  }));
  assert.deepEqual(started.selection, { state: "waiting", filter: { id: "m" } });
  const report = await done();
  assert.equal(report.status, "done");
  assert.equal(report.done, 360);
  assert.equal(report.scanned, 750);
  assert.deepEqual(steps.map((step) => "ids" in step ? step.ids.length : -1), [
    100,
    20,
    100,
    20,
    100,
    20,
  ]);
  // The 120 cancelled jobs left the list: each next slice starts 120 earlier than the search said.
  assert.deepEqual(reads.map((position) => position?.at ?? 0), [0, 130, 260]);
  assert.ok(progress.some((operation) => operation.scanned === 250), "progress after each slice");
  await operations.close();
});

Deno.test("Operations stops a filter's walk between steps when cancelled", async () => {
  const gate = fakeSource(true);
  const { operations } = board(gate.source);
  let reads = 0;
  const matches: MatchReader = () => {
    reads++;
    return Promise.resolve({
      ids: Array.from({ length: 250 }, (_, i) => `m${i}`),
      scanned: 1000,
      total: 10_000,
      next: { at: 1000 * reads, skip: 0, scanned: 1000 * reads },
    });
  };
  const running = await operations.start(spec({
    selector: idPrefixSelection("failed"),
    total: 10_000,
    matches,
  }));
  const cancelled = await cancelDuringFirstStep(operations, gate, running.id);
  assert.equal(cancelled?.status, "cancelled");
  assert.equal(cancelled?.done, 100, "the step under way finished, no other began");
  assert.equal(cancelled?.scanned, 1000);
  assert.equal(reads, 1, "no further slice was read");
  await operations.close();
});

Deno.test("Operations does not start a second run of its own operation when its sweep claims it", async () => {
  const gate = fakeSource(true);
  const timers = new FakeTimers();
  // A renewal that comes too late: the lease runs out while the first step still waits.
  const { operations } = board(gate.source, { timers, renewMs: 60_000 });
  await operations.start(spec());
  await timers.tick(10_000 + 5_000);
  for (let turn = 0; turn < 10; turn++) await settle();
  assert.equal(gate.steps.length, 1, "one step under way, not a second run's");
  gate.open();
  await operations.close();
});

Deno.test("Only the leading replica takes an operation over: the others send the store nothing", async () => {
  const gate = fakeSource(true);
  const table = new OperationTable();
  let claims = 0;
  const claim = table.claim.bind(table);
  table.claim = (...args) => {
    claims++;
    return claim(...args);
  };
  const source = gate.source;
  const store = { operations: table, shared: true };
  // A's first step waits for good and it never renews: A is gone.
  const a = board(source, { timers: new FakeTimers(), renewMs: 60_000 }, store);
  const started = await a.operations.start(spec());
  let leads = false;
  const timers = new FakeTimers();
  const b = board(source, { timers, leads: () => leads }, store);

  await timers.tick(10_000 + 3 * 5_000);
  assert.equal(claims, 0, "a replica that does not lead sweeps nothing");
  assert.equal((await table.get(started.id))?.operation.runner, started.runner);

  leads = true;
  await timers.tick(5_000);
  assert.equal(claims, 1);
  assert.equal((await table.get(started.id))?.operation.runner, b.operations.replica);
  gate.open();
  await Promise.all([a.operations.close(), b.operations.close()]);
});

Deno.test("a replica that does not lead reads the operations when the live state's mark changes, not at each sweep", async () => {
  const timers = new FakeTimers();
  const table = new OperationTable();
  const store = { operations: table, shared: true };
  let lists = 0;
  const list = table.list.bind(table);
  table.list = () => (lists++, list());
  let mark: string | null = null;
  const starter = fakeSource(true);
  const runner = board(starter.source, { timers }, store, {
    onStart: () => mark = crypto.randomUUID(),
  });
  const seen: BulkOperation[] = [];
  const follower = board(fakeSource().source, { timers, leads: () => false }, store, {
    following: () => true,
    onProgress: (operation) => seen.push(operation),
  });
  // Told each stats poll (3 s), as its hub reads the live state: the first tells it to look once.
  const polls = async (ms: number) => {
    for (let t = 0; t < ms; t += 3_000) {
      follower.operations.told(mark);
      await timers.tick(3_000);
    }
  };
  await polls(60_000);
  // Before, its sweep read the store every 5 s while someone followed it: 12 a minute.
  assert.equal(lists, 1, "one look, at the first mark");
  const { id } = await runner.operations.start(spec());
  assert.notEqual(mark, null, "the start marked the live state");
  await polls(3_000);
  assert.ok(lists > 1, "the new mark: it reads the operations");
  assert.ok(seen.some((operation) => operation.id === id), "and reports the one running");
  starter.open();
  await runner.done();
  await runner.operations.close();
  await follower.operations.close();
});
