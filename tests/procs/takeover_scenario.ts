/**
 * What the process tests do to N board processes behind a round-robin
 * proxy, whatever they run on (one Redis, a cluster, boards embedded in
 * Apps): a bulk retry of many failed jobs started through one replica,
 * followed through another (`GET /operations/{id}` and `bulk:progress`),
 * its runner killed with SIGKILL halfway and finished by another replica;
 * and an operation cancelled through a replica that neither started nor
 * runs it. A real taskora worker runs the retried jobs, and taskora's own
 * counts say what became of every one; a job run again by taskora's stall
 * check is told apart from one the board retried twice.
 *
 * @module
 */

import assert from "node:assert/strict";
import type { AuditEntry } from "../../src/contract/audit.ts";
import { BULK_BATCH, type BulkOperation } from "../../src/contract/bulk.ts";
import type { BoardProcess, BoardProcesses } from "../helpers/board_processes.ts";
import { type RoundRobinProxy, startRoundRobinProxy } from "../helpers/round_robin_proxy.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createTaskora, type redisAdapter } from "../../../shared/taskora/taskora.js";

// deno-lint-ignore no-explicit-any
type App = any;

/** A taskora adapter (of one Redis or of a cluster). */
export type Adapter = ReturnType<typeof redisAdapter>;

/**
 * taskora's retention turned off: by default a worker's periodic trim deletes
 * the oldest failed jobs beyond 300 and completed ones beyond 100, 100 at a
 * time, and the counts would no longer say what became of every job.
 */
const KEEP_EVERY_JOB = {
  completed: { maxItems: 0, maxAge: "10000d" },
  failed: { maxItems: 0, maxAge: "10000d" },
};

/** The replicas under test and the store they share. */
export interface Replicas {
  boards: BoardProcess[];
  proxy: RoundRobinProxy;
  /** A taskora App on the same store that keeps every job (not started). */
  app(): App;
}

/** An answer through the proxy, and the backend that gave it. */
export interface Answer<T> {
  status: number;
  backend: number;
  body: T;
}

/** Sends a request through the proxy (to backend `to`, else the next in turn). */
export async function call<T>(
  proxy: RoundRobinProxy,
  path: string,
  { to, body }: { to?: number; body?: unknown } = {},
): Promise<Answer<T>> {
  if (to !== undefined) proxy.turnTo(to);
  const response = await fetch(`${proxy.origin}/board/api${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    backend: Number(response.headers.get("x-backend")),
    body: text ? JSON.parse(text) : null,
  };
}

/** The process id in an operation's `runner` (`host:pid:tag`). */
export function runnerPid(operation: BulkOperation): number {
  assert.ok(operation.runner, `operation ${operation.id} has a runner`);
  return Number(operation.runner.split(":").at(-2));
}

/** The index of the board whose process runs `operation`. */
function runnerIndex(replicas: Replicas, operation: BulkOperation): number {
  const index = replicas.boards.findIndex((board) => board.pid === runnerPid(operation));
  assert.ok(index >= 0, `runner ${operation.runner} is one of the board processes`);
  return index;
}

/** The `bulk:progress` frames one replica's event stream sends, as they come. */
export interface ProgressFeed {
  frames: BulkOperation[];
  close(): Promise<void>;
}

/** Opens `GET /events?tasks=<task>` through backend `to` and keeps its `bulk:progress` frames. */
export async function followProgress(
  proxy: RoundRobinProxy,
  to: number,
  task: string,
): Promise<ProgressFeed> {
  proxy.turnTo(to);
  const controller = new AbortController();
  const response = await fetch(`${proxy.origin}/board/api/events?tasks=${task}`, {
    signal: controller.signal,
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-backend"), String(to));
  const frames: BulkOperation[] = [];
  const reading = (async () => {
    let buffer = "";
    for await (const chunk of response.body!.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      const end = buffer.lastIndexOf("\n\n");
      if (end < 0) continue;
      for (const frame of buffer.slice(0, end).split("\n\n")) {
        if (!frame.includes("event: bulk:progress")) continue;
        const data = frame.split("\n").find((line) => line.startsWith("data: "));
        if (data) frames.push(JSON.parse(data.slice(6)));
      }
      buffer = buffer.slice(end + 2);
    }
  })().catch(() => {});
  return {
    frames,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}

/** A worker for `task` that counts how often it runs each job. */
export function countingWorker(app: App, task: string): Map<string, number> {
  const handled = new Map<string, number>();
  app.task(task, {
    concurrency: 100,
    handler: (_data: unknown, ctx: { id: string }) => {
      handled.set(ctx.id, (handled.get(ctx.id) ?? 0) + 1);
      return null;
    },
  });
  return handled;
}

/** The hang guard of half a retry: it asserts nothing about speed. */
const HALF_LIMIT_MS = 180_000;

/**
 * Polls `GET /operations/{id}` through the proxy, in turn, until `done`
 * holds; any answer but 200 fails at once. Half of a 50,000-job retry took
 * 64 s on the 2-core machine at load 17, and over 90 s at load 30, hence
 * the longer limits: {@link HALF_LIMIT_MS}, and a minute more for the rest.
 */
async function pollOperation(
  proxy: RoundRobinProxy,
  id: string,
  done: (operation: BulkOperation, backend: number) => boolean,
  what: string,
  limitMs?: number,
): Promise<BulkOperation> {
  const answer = await waitFor(async () => {
    const answer = await call<BulkOperation>(proxy, `/operations/${id}`);
    return answer.status !== 200 || done(answer.body, answer.backend) ? answer : null;
  }, { what, limitMs });
  assert.equal(
    answer.status,
    200,
    `GET /operations/${id} through backend ${answer.backend}: ${JSON.stringify(answer.body)}`,
  );
  return answer.body;
}

/**
 * Starts a retry of the `total` failed jobs of `task` through backend 0, follows
 * it from another replica, kills its runner halfway and waits for another
 * replica to finish it; a real worker runs every retried job. Asserts that
 * every job was retried once and run once, but for the runs taskora's stall
 * check added.
 */
export async function killRunnerHalfway(
  replicas: Replicas,
  task: string,
  total: number,
): Promise<void> {
  const { proxy, boards } = replicas;
  const worker = replicas.app();
  const handled = countingWorker(worker, task);
  await worker.start();
  try {
    const started = await call<{ operation: BulkOperation }>(proxy, "/bulk", {
      to: 0,
      body: { action: "retry", selector: { task, state: "failed" } },
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { id } = started.body.operation;
    assert.equal(started.body.operation.total, total);
    const runner = runnerIndex(replicas, started.body.operation);
    const watcher = (runner + 1) % boards.length;
    const feed = await followProgress(proxy, watcher, task);
    try {
      const followedFrom = new Set<number>();
      const half = await pollOperation(
        proxy,
        id,
        (operation, backend) => {
          if (backend !== runner) followedFrom.add(backend);
          return operation.done >= total / 2 && feed.frames.some((frame) => frame.id === id);
        },
        `operation ${id} to be half done, and its progress on replica ${watcher}'s stream`,
        HALF_LIMIT_MS,
      );
      assert.equal(half.status, "running", "killed halfway, not after the end");
      assert.ok(followedFrom.size > 0, "another replica answered for the operation");
      await boards[runner].kill();

      const finished = await pollOperation(
        proxy,
        id,
        (operation) => operation.status !== "running",
        `another replica to take operation ${id} over and finish it`,
        // Its second half, as long as the first, and the takeover.
        HALF_LIMIT_MS + 60_000,
      );
      assert.equal(finished.status, "done", JSON.stringify(finished));
      assert.notEqual(runnerPid(finished), boards[runner].pid, "another replica finished it");
      // Every job is counted but those of the one step the killed runner may have acted on
      // after its last save (the worker below proves each job was retried once).
      assert.ok(total - finished.done <= BULK_BATCH, `${finished.done} of ${total} counted`);
      await auditShowsTakeover(proxy, started.body.operation, finished);
      await waitFor(() => feed.frames.some((frame) => frame.id === id && frame.status === "done"), {
        what: `the end of ${id} on replica ${watcher}'s event stream`,
      });
      const runners = new Set(feed.frames.filter((frame) => frame.id === id).map(runnerPid));
      assert.deepEqual(
        runners,
        new Set([boards[runner].pid, runnerPid(finished)]),
        "the stream carried the progress of the killed runner, then of the one that took over",
      );
    } finally {
      await feed.close();
    }

    // Until nothing is left to run; the limit is a guard only: beside the other test files on
    // two cores, one worker may need a minute for 50,000 jobs.
    const counts = await waitFor(async () => {
      const counts = await worker.inspect().stats({ task });
      return counts.waiting + counts.active + counts.delayed === 0 ? counts : null;
    }, { what: `the worker to run the ${total} retried jobs`, limitMs: 120_000 });
    assert.deepEqual(counts, {
      waiting: 0,
      active: 0,
      delayed: 0,
      completed: total,
      failed: 0,
      expired: 0,
      cancelled: 0,
    });
    assert.equal(handled.size, total, "the worker ran every job");
    await assertNoneRetriedTwice(proxy, handled, watcher);
  } finally {
    await worker.close();
  }
}

/**
 * Checks that the board started no job twice. A job may still have run more
 * than once: taskora 0.5.0's stall check lists every active job, a job that
 * finishes before its worker renews the lock stays listed with no lock, and
 * the next check (30 s on) moves it back to waiting, finished or not; a run
 * longer than a minute on a loaded machine re-ran dozens of jobs so. Each
 * such move counts in the job's `stalledCount` (which the board's retry
 * clears), so every run past the first must be one of them; the message
 * says how many taskora made. Asks the replica `live`.
 */
async function assertNoneRetriedTwice(
  proxy: RoundRobinProxy,
  handled: ReadonlyMap<string, number>,
  live: number,
): Promise<void> {
  const runs = [];
  // One after another, each to a replica still running (the proxy turns per request).
  for (const [id, times] of [...handled].filter(([, times]) => times > 1)) {
    const { status, body } = await call<{ stalledCount: number }>(proxy, `/jobs/${id}`, {
      to: live,
    });
    assert.equal(status, 200, `GET /jobs/${id}`);
    runs.push({ id, times, stalledCount: body.stalledCount });
  }
  const byTaskora = runs.reduce((sum, run) => sum + Math.min(run.times - 1, run.stalledCount), 0);
  assert.deepEqual(
    runs.filter((run) => run.times > 1 + run.stalledCount),
    [],
    `no job ran more than once beyond taskora's stall-check re-runs (${byTaskora} of them)`,
  );
}

/**
 * Checks, through the proxy, that the trail records the takeover once (the
 * replica that took it, the one it took it from) and the operation's end
 * once.
 */
async function auditShowsTakeover(
  proxy: RoundRobinProxy,
  started: BulkOperation,
  finished: BulkOperation,
): Promise<void> {
  const entries = await waitFor(async () => {
    const { body } = await call<{ entries: AuditEntry[] }>(proxy, `/audit?task=${started.task}`);
    const mine = body.entries.filter((entry) => entry.target === started.id);
    return mine.some((entry) => entry.action === `bulk.${started.action}`) ? mine : null;
  }, { what: `the end of ${started.id} in the audit trail` });
  const takeovers = entries.filter((entry) => entry.action === "operation.takeover");
  assert.equal(takeovers.length, 1, JSON.stringify(entries));
  assert.ok(
    takeovers[0].detail?.includes(`${finished.runner} took over`) &&
      takeovers[0].detail.includes(`from ${started.runner}`),
    takeovers[0].detail ?? "",
  );
  const ends = entries.filter((entry) => entry.action === `bulk.${started.action}`);
  assert.equal(ends.length, 1, "the end is recorded once");
  assert.equal(ends[0].count, finished.done);
}

/**
 * Starts a retry of the `total` failed jobs of `task` through backend 0 and
 * cancels it, once it has done a step, through a replica that neither
 * started nor runs it; taskora's counts then show exactly the jobs it
 * retried as waiting and the rest still failed.
 */
export async function cancelFromThirdReplica(
  replicas: Replicas,
  task: string,
  total: number,
): Promise<void> {
  const { proxy } = replicas;
  const started = await call<{ operation: BulkOperation }>(proxy, "/bulk", {
    to: 0,
    body: { action: "retry", selector: { task, state: "failed" } },
  });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  const { id } = started.body.operation;
  const runner = runnerIndex(replicas, started.body.operation);
  const third = [0, 1, 2].find((index) => index !== 0 && index !== runner)!;
  await pollOperation(proxy, id, (operation) => operation.done > 0, `a step of ${id}`);
  const cancelled = await call<{ operation: BulkOperation }>(
    proxy,
    `/operations/${id}/cancel`,
    { to: third, body: {} },
  );
  assert.equal(cancelled.backend, third);
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
  const { operation } = cancelled.body;
  assert.equal(operation.status, "cancelled");
  assert.ok(operation.done < total, `stopped before the end (${operation.done} of ${total})`);
  const shown = await call<BulkOperation>(proxy, `/operations/${id}`, { to: runner });
  assert.deepEqual(shown.body, operation, "the runner's replica shows the same record");

  const reader = replicas.app();
  await reader.start(); // no task: no worker; an App that never started does not close its connection
  try {
    const counts = await reader.inspect().stats({ task });
    assert.equal(counts.waiting, operation.done, "each job it counted was retried, once");
    assert.equal(counts.failed, total - operation.done, "the others are still failed");
  } finally {
    await reader.close();
  }
}

/** What the tests of one setup run on. */
export interface Setup {
  /** Starts the board processes (3) on the store. */
  startBoards(): Promise<BoardProcesses>;
  /** Writes `count` failed jobs of `task` as taskora leaves them. */
  loadFailed(task: string, count: number): Promise<void>;
  /** A taskora adapter on the store, for the App that runs and counts the jobs. */
  adapter(): Adapter;
  /** Stops the store, once the processes are stopped. */
  stop(): Promise<void>;
}

/**
 * Loads the failed jobs of both tests, then starts the board processes (so
 * their first discovery finds both tasks), puts them behind a round-robin
 * proxy, and registers the two tests (named after the setup) and the
 * `afterAll` that stops everything.
 */
export async function takeoverTests(
  name: string,
  setup: Setup,
  jobs: { cancelled: number; killed: number },
): Promise<void> {
  await setup.loadFailed("report", jobs.cancelled);
  await setup.loadFailed("mail", jobs.killed);
  const processes = await setup.startBoards();
  const replicas: Replicas = {
    boards: processes.boards,
    proxy: await startRoundRobinProxy(processes.boards.map((board) => board.port)),
    app: () => createTaskora({ adapter: setup.adapter(), retention: KEEP_EVERY_JOB }),
  };
  Deno.test.afterAll(async () => {
    await replicas.proxy.close();
    await processes.stop();
    await setup.stop();
  });
  Deno.test(`${name}: a bulk retry is cancelled through a replica that neither started nor runs it`, async () => {
    await cancelFromThirdReplica(replicas, "report", jobs.cancelled);
  });
  Deno.test(`${name}: kill -9 of a bulk retry's runner halfway: another replica finishes it, each job retried once`, async () => {
    await killRunnerHalfway(replicas, "mail", jobs.killed);
  });
}
