/**
 * Boards on one store act as one board for bulk operations: an operation
 * started on A is listed and shown on B and cancelled from C; the limit of
 * running operations is the store's; B's event stream carries A's
 * progress; and a runner that dies (its steps hang, its timers stop) is
 * taken over by B from the saved cursor, recorded in the audit trail, with
 * one end entry. Each board runs on its own fake timers: leases, sweeps and
 * the cancel's wait move only when a test ticks them.
 *
 * Registered for one store by {@link operationReplicaSuite} (the memory
 * source, a real Redis).
 */

import assert from "node:assert/strict";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import { createBoardOn } from "../../src/board.ts";
import type { BoardOptions } from "../../src/options.ts";
import type { BulkStep, TaskSource } from "../../src/source/types.ts";
import type { RedisTaskSource } from "../../src/source/redis/mod.ts";
import type { AuditEntry } from "../../src/contract/audit.ts";
import { FakeTimers, settle } from "../helpers/fake_timers.ts";
import { isEvent, openStream } from "../events/sse_client.ts";
import { pairedStore } from "../../src/store/pairing.ts";

/** A store seeded from the fixture, and the source each board reaches it through. */
export interface SharedStore {
  /** A new source on the store (a replica's own connection). */
  source(): TaskSource;
  /** The ids of the failed send-email jobs. */
  failedIds: string[];
  /** The state of a send-email job now. */
  stateOf(id: string): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * The store of Redis-backed boards (one Redis or a Cluster) whose keyspace
 * holds the fixture: each replica's source is a new one `connect` opens, as
 * each board process has its own connections.
 */
export async function redisStore(connect: () => RedisTaskSource): Promise<SharedStore> {
  const sources: RedisTaskSource[] = [];
  const open = (): TaskSource => {
    const source = connect();
    sources.push(source);
    return source;
  };
  const reader = open();
  const failed = await reader.listJobs("send-email", "failed", 0, 100);
  return {
    source: open,
    failedIds: failed.jobs.map((job) => job.id),
    stateOf: async (id) => (await reader.getJob(id))?.state ?? null,
    close: async () => {
      for (const source of sources) await source.close();
    },
  };
}

/** Lease and sweep of the boards under test: a dead runner's operation is taken within 15 s. */
export const LEASE_MS = 10_000;
/** How often a board sweeps. */
export const SWEEP_MS = 5_000;

/**
 * A source whose bulk steps can be held: each waits, before it acts
 * (`before`) or after it acted (`after`), until released; a held step never
 * released is a runner killed there.
 */
export function holdable(source: TaskSource) {
  let hold: "before" | "after" | null = null;
  /** The first step held. */
  let from = 0;
  const held: (() => void)[] = [];
  const steps: BulkStep[] = [];
  const wait = () => new Promise<void>((resolve) => held.push(resolve));
  const wrapped = new Proxy(source, {
    get(target, name, receiver) {
      if (name !== "bulkStep") {
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      }
      return async (...args: Parameters<NonNullable<TaskSource["bulkStep"]>>) => {
        const held = steps.push(args[2]) > from;
        if (held && hold === "before") await wait();
        const result = await target.bulkStep!(...args);
        if (held && hold === "after") await wait();
        return result;
      };
    },
  });
  return {
    source: wrapped,
    steps,
    /** Holds every step from the `first`th on (0: the next one), before or after it acts. */
    holdSteps(at: "before" | "after" | null, first = steps.length) {
      hold = at;
      from = first;
    },
    /** Steps waiting now. */
    get waiting() {
      return held.length;
    },
    /** Lets the steps waiting go on. */
    release() {
      for (const go of held.splice(0)) go();
    },
  };
}

/** A board on `source` (steps holdable), on its own fake timers, and how a test calls it. */
export function replica(source: TaskSource, options: BoardOptions = {}) {
  const timers = new FakeTimers();
  const gate = holdable(source);
  const board = createBoardOn(timers, gate.source, options);
  const call = async (method: string, path: string, body?: unknown) =>
    await board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: { origin: "http://board.test", "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
  const json = async <T>(method: string, path: string, body?: unknown): Promise<T> =>
    await (await call(method, path, body)).json() as T;
  return { timers, gate, board, call, json };
}

/** A board of the suite. */
export type Replica = ReturnType<typeof replica>;

/** Runs real turns until `check` holds (steps of the memory source settle in turns). */
export async function until(check: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let turn = 0; turn < 2_000; turn++) {
    if (await check()) return;
    await settle();
  }
  throw new Error(`never happened: ${what}`);
}

/**
 * Moves `on`'s clock a sweep at a time until `check` holds: between two
 * sweeps its lease turns and the sweep's claim go to the store and back in
 * real turns, however long a real Redis takes to answer.
 */
async function sweepUntil(
  on: Replica,
  check: () => Promise<boolean>,
  what: string,
): Promise<void> {
  await until(async () => {
    await on.timers.tick(SWEEP_MS);
    return await check();
  }, what);
}

/** 300 ids, three steps of 100: the failed jobs in the second, ids no job has (skipped) around them. */
function selection(failed: string[]): string[] {
  const missing = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => `missing-${from + i}`);
  return [...missing(0, 100), ...failed, ...missing(100, 200 - failed.length)];
}

async function startRetry(on: Replica, ids: string[]): Promise<BulkOperation> {
  const response = await on.call("POST", "/bulk", {
    action: "retry",
    selector: { task: "send-email", ids },
  });
  assert.equal(response.status, 202, await response.clone().text());
  return (await response.json()).operation;
}

async function entries(on: Replica, action: string): Promise<AuditEntry[]> {
  const page = await on.json<{ entries: AuditEntry[] }>("GET", `/audit?action=${action}`);
  return page.entries;
}

/** Registers the suite for a store. */
export function operationReplicaSuite(name: string, open: () => Promise<SharedStore>): void {
  function replicaTest(
    title: string,
    body: (store: SharedStore, boards: Replica[]) => Promise<void>,
  ) {
    Deno.test(`${name}: ${title}`, async () => {
      const store = await open();
      const boards = [replica(store.source()), replica(store.source()), replica(store.source())];
      try {
        await body(store, boards);
      } finally {
        for (const { gate } of boards) {
          gate.holdSteps(null);
          gate.release();
        }
        for (const { board } of boards) await board.close();
        await store.close();
      }
    });
  }

  replicaTest(
    "an operation started on A is listed and shown on B and cancelled from C",
    async (store, [a, b, c]) => {
      a.gate.holdSteps("before");
      const started = await startRetry(a, selection(store.failedIds));
      const runner = (await a.json<BulkOperation>("GET", `/operations/${started.id}`)).runner;
      assert.match(runner ?? "", new RegExp(`:${Deno.pid}:[0-9a-f]{4}$`), "host, pid, 4 hex");

      const listed = await b.json<BulkOperation[]>("GET", "/operations");
      assert.deepEqual(listed.map((op) => [op.id, op.status, op.runner]), [[
        started.id,
        "running",
        runner,
      ]]);
      const shown = await b.call("GET", `/operations/${started.id}`);
      assert.equal(shown.status, 200);
      assert.equal((await shown.json()).user, started.user);

      await until(() => a.gate.waiting === 1, "A's first step");
      const cancelling = c.call("POST", `/operations/${started.id}/cancel`, {});
      await until(
        async () =>
          (await pairedStore(store.source())!.operations.get(started.id))?.cancelRequested === true,
        "the flag",
      );
      a.gate.release();
      // C reads the record until it says cancelled, on its own timers.
      let answer: Response | null = null;
      cancelling.then((response) => answer = response);
      await until(async () => {
        await c.timers.tick(100);
        return answer !== null;
      }, "C's answer");
      const { operation } = await answer!.json();
      assert.equal(operation.status, "cancelled");
      assert.equal(operation.runner, runner);
      assert.equal(a.gate.steps.length, 1, "A stopped before its next step");
      assert.equal(operation.done + operation.skipped, 100);
    },
  );

  replicaTest(
    "the limit of running operations is the store's, not a board's",
    async (store, [a, b]) => {
      a.gate.holdSteps("before");
      await startRetry(a, selection(store.failedIds));
      await startRetry(a, ["missing"]);
      const refused = await b.call("POST", "/bulk", {
        action: "retry",
        selector: { task: "send-email", ids: ["other"] },
      });
      assert.equal(refused.status, 409);
      const error = await refused.json();
      assert.equal(error.code, "INVALID_STATE");
      assert.match(error.error, /whichever replica runs them/);
    },
  );

  replicaTest(
    "a cancel of a dead runner's operation waits for the takeover, which stops it",
    async (store, [a, , c]) => {
      a.gate.holdSteps("before", 1);
      const started = await startRetry(a, selection(store.failedIds));
      await until(() => a.gate.waiting === 1, "A's second step held for good");
      let answer: Response | null = null;
      c.call("POST", `/operations/${started.id}/cancel`, {}).then((response) => answer = response);
      // C's own sweep takes the operation once A's lease ran out, reads the flag, and stops it.
      await until(async () => {
        await c.timers.tick(1_000);
        return answer !== null;
      }, "C's answer");
      const { operation } = await answer!.json();
      assert.equal(operation.status, "cancelled");
      assert.notEqual(operation.runner, started.runner, "stopped by the board that took it over");
      assert.equal(operation.done + operation.skipped, 100, "no step after the flag");
      assert.equal(c.gate.steps.length, 0);
    },
  );

  replicaTest("B's event stream carries A's progress and end", async (store, [a, b]) => {
    const stream = await openStream(b.board.fetch, "http://board.test/board/api/events");
    try {
      a.gate.holdSteps("before");
      const started = await startRetry(a, selection(store.failedIds));
      await until(() => a.gate.waiting === 1, "A's first step");
      // B's sweep sees an operation it does not run, and follows the store while it runs.
      await b.timers.tick(SWEEP_MS);
      a.gate.holdSteps(null);
      a.gate.release();
      // It ends before B reads the store once: B still reports its end.
      await until(
        async () =>
          (await a.json<BulkOperation>("GET", `/operations/${started.id}`)).status === "done",
        "A's end",
      );
      const ended = (frame: { event?: string; data?: string }) =>
        isEvent("bulk:progress", (d) => d.id === started.id && d.status === "done")(frame);
      await until(async () => {
        await b.timers.tick(250);
        return stream.frames.some(ended);
      }, "A's end on B's stream");
      const last = JSON.parse(stream.frames.find(ended)!.data!);
      assert.equal(last.runner, started.runner);
      assert.equal(last.done + last.skipped, 300);
    } finally {
      await stream.close();
    }
  });

  replicaTest(
    "B asked about A's running operation follows it at once, not from its next sweep",
    async (store, [a, b]) => {
      const stream = await openStream(b.board.fetch, "http://board.test/board/api/events");
      try {
        a.gate.holdSteps("before");
        const started = await startRetry(a, selection(store.failedIds));
        await until(() => a.gate.waiting === 1, "A's first step");
        const asked = await b.json<BulkOperation>("GET", `/operations/${started.id}`);
        assert.equal(asked.status, "running");
        a.gate.holdSteps(null);
        a.gate.release();
        const ended = (frame: { event?: string; data?: string }) =>
          isEvent("bulk:progress", (d) => d.id === started.id && d.status === "done")(frame);
        // B's clock moves in its follow interval only, never as far as a sweep.
        for (let waited = 0; !stream.frames.some(ended); waited += 250) {
          assert.ok(waited < SWEEP_MS, "A's end on B's stream before B's sweep");
          await until(
            async () =>
              (await a.json<BulkOperation>("GET", `/operations/${started.id}`)).status === "done",
            "A's end",
          );
          await b.timers.tick(250);
          await settle();
        }
      } finally {
        await stream.close();
      }
    },
  );

  replicaTest(
    "a board closed mid-operation gives it back: the next sweep elsewhere goes on",
    async (store, [a, b]) => {
      a.gate.holdSteps("before", 1);
      const started = await startRetry(a, selection(store.failedIds));
      await until(() => a.gate.waiting === 1, "A's second step");
      const closing = a.board.close();
      a.gate.release();
      await closing;
      const givenBack = await b.json<BulkOperation>("GET", `/operations/${started.id}`);
      assert.equal(givenBack.status, "running", "not cancelled: another replica goes on");
      assert.equal(givenBack.done + givenBack.skipped, 200, "saved after its last step");

      // No operation lease to wait for: B's first sweep starts it competing for the boards'
      // lease (A gave it back), and its next one, leading, takes the operation over.
      await sweepUntil(
        b,
        async () =>
          (await b.json<BulkOperation>("GET", `/operations/${started.id}`)).status === "done",
        "B's end",
      );
      const report = await b.json<BulkOperation>("GET", `/operations/${started.id}`);
      assert.equal(report.done, store.failedIds.length);
      assert.equal(report.done + report.skipped, 300);
      assert.equal(a.gate.steps.length, 2, "A ran two steps, B the third");
      const takeovers = await entries(b, "operation.takeover");
      assert.match(takeovers[0].detail ?? "", new RegExp(`from ${started.runner}`));
    },
  );

  replicaTest(
    "a read-only board takes over no operation: it changes no job",
    async (store, [a, b]) => {
      const readOnly = replica(store.source(), { readOnly: true });
      try {
        a.gate.holdSteps("before", 1);
        const started = await startRetry(a, selection(store.failedIds));
        await until(() => a.gate.waiting === 1, "A's second step held for good");
        await readOnly.timers.tick(LEASE_MS + SWEEP_MS);
        for (let turn = 0; turn < 20; turn++) await settle();
        const waiting = await readOnly.json<BulkOperation>("GET", `/operations/${started.id}`);
        assert.equal(waiting.status, "running");
        assert.equal(waiting.runner, started.runner, "still A's");
        assert.equal(readOnly.gate.steps.length, 0, "no step from the read-only board");
        // A writable board does.
        await sweepUntil(
          b,
          async () =>
            (await b.json<BulkOperation>("GET", `/operations/${started.id}`)).status === "done",
          "B's end",
        );
      } finally {
        await readOnly.board.close();
      }
    },
  );

  // A kill at every step boundary (a step held before it acts) and mid-step (after it acted,
  // before its cursor was saved), at each of the three steps; the failed jobs are in the second.
  for (const step of [0, 1, 2]) {
    for (const at of ["before", "after"] as const) {
      replicaTest(
        `a runner killed ${
          at === "before" ? "before" : "after"
        } its step ${step} acted is taken over from its cursor: every job acted on once`,
        async (store, [a, b]) => {
          const ids = selection(store.failedIds);
          // A's steps before `step` act and are saved; that one is held for good: A is gone.
          a.gate.holdSteps(at, step);
          const started = await startRetry(a, ids);
          await until(() => a.gate.waiting === 1, `A's step ${step} held`);

          // A's lease runs out on B's clock; B's sweep takes the operation and finishes it.
          await sweepUntil(
            b,
            async () =>
              (await b.json<BulkOperation>("GET", `/operations/${started.id}`)).status !==
                "running",
            "B's end",
          );
          const report = await b.json<BulkOperation>("GET", `/operations/${started.id}`);
          assert.equal(report.status, "done");
          assert.notEqual(report.runner, started.runner);
          assert.match(report.runner ?? "", new RegExp(`:${Deno.pid}:[0-9a-f]{4}$`));
          assert.equal(report.done + report.skipped, 300, "each id counted once");
          // The jobs A's unsaved step retried show as skipped: B found them waiting already.
          assert.equal(report.done, at === "after" && step === 1 ? 0 : store.failedIds.length);
          for (const id of store.failedIds) assert.equal(await store.stateOf(id), "waiting");

          // A comes back to life: its step finds nothing to act on, and its save is refused.
          a.gate.holdSteps(null);
          a.gate.release();
          await until(() => a.gate.steps.length >= step + 1, "A's held step ends");
          for (let turn = 0; turn < 20; turn++) await settle();
          const after = await b.json<BulkOperation>("GET", `/operations/${started.id}`);
          assert.deepEqual(after, report, "A wrote nothing once it lost its lease");

          const takeovers = await entries(b, "operation.takeover");
          assert.equal(takeovers.length, 1);
          assert.equal(takeovers[0].target, started.id);
          assert.match(
            takeovers[0].detail ?? "",
            new RegExp(`${report.runner} took over .* from ${started.runner}`),
          );
          assert.equal((await entries(b, "bulk.retry")).length, 1, "one end entry");
        },
      );
    }
  }
}
