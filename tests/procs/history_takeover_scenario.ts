/**
 * The history's leader killed with `kill -9` mid-stream, whatever store the
 * history is in: two CLI board processes with the history on, one Redis, a
 * real taskora worker completing and failing jobs (some retrying). The
 * leader reaches Redis through a proxy that holds the change feed's save of
 * its ids once the leader had written a batch to the history, and is killed
 * there: the next leader reads that batch again from the saved ids (the
 * case exactly-once rests on). At the end the history is counted against
 * what the worker did: every job once, every attempt once, the rollups'
 * counts equal to the worker's, nothing lost, nothing doubled.
 *
 * @module
 */

import assert from "node:assert/strict";
import { RECORDED_FIELDS } from "../../src/history/recorder.ts";
import type { HistoryStore } from "../../src/history/store.ts";
import type { AttemptOutcome } from "../../src/history/summary.ts";
import { feedKeys } from "../../src/store/redis/feed.ts";
import {
  type BoardProcesses,
  SHORT_LEASE,
  startBoardProcesses,
} from "../helpers/board_processes.ts";
import { respArguments, startHoldingProxy } from "../helpers/holding_proxy.ts";
import { connectClient, type TestRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createTaskora, redisAdapter } from "../../../shared/taskora/taskora.js";

// deno-lint-ignore no-explicit-any
type App = any;

/** How many jobs of each task one wave dispatches. */
const WAVE = 40;

/** The attempts of a job as the worker ran them: `[attempt, outcome]`. */
type Runs = [number, AttemptOutcome][];

/** What the worker did, per task and job id. */
type WorkerLog = Map<string, Map<string, Runs>>;

/**
 * A worker for `tick` (every job completes) and `flaky` (job `n` fails its
 * first `n % 4` attempts of 3: completes at once, after one or two retries,
 * or fails for good), logging each attempt's outcome as the history should
 * record it.
 */
function loggingWorker(app: App): WorkerLog {
  const log: WorkerLog = new Map([["tick", new Map()], ["flaky", new Map()]]);
  const note = (task: string, id: string, attempt: number, outcome: AttemptOutcome) => {
    const jobs = log.get(task)!;
    jobs.set(id, [...jobs.get(id) ?? [], [attempt, outcome]]);
  };
  type Ctx = { id: string; attempt: number; heartbeat(): void };
  // A job renews its lock before it ends, which takes it off taskora's stall check: else the
  // check may run a completed job again (taskora 0.5.0), a second run both would count.
  app.task("tick", {
    concurrency: 20,
    handler: (data: { n: number }, ctx: Ctx) => {
      ctx.heartbeat();
      note("tick", ctx.id, ctx.attempt, "completed");
      return data.n;
    },
  });
  app.task("flaky", {
    concurrency: 20,
    retry: { attempts: 3, backoff: "fixed", delay: 1 },
    handler: (data: { n: number }, ctx: Ctx) => {
      ctx.heartbeat();
      const fails = ctx.attempt <= data.n % 4;
      note(
        "flaky",
        ctx.id,
        ctx.attempt,
        !fails ? "completed" : ctx.attempt < 3 ? "retrying" : "failed",
      );
      if (fails) throw new Error(`gateway timeout ${data.n} #${ctx.attempt}`);
      return data.n;
    },
  });
  // Failures are expected: a listener keeps taskora from printing each one.
  app.on("task:failed", () => {});
  return log;
}

/** Whether stream id `a` is after `b`. */
function isLater(a: string, b: string | undefined): boolean {
  if (b === undefined) return true;
  const [aMs, aSeq] = a.split("-").map(Number);
  const [bMs, bSeq] = b.split("-").map(Number);
  return aMs !== bMs ? aMs > bMs : aSeq > bSeq;
}

/** The counts the rollups of `task` should hold, from the worker's log. */
function expectedCounts(runs: Iterable<Runs>) {
  const counts = { arrivals: 0, completed: 0, failed: 0, retried: 0 };
  for (const attempts of runs) {
    counts.arrivals++;
    for (const [, outcome] of attempts) {
      if (outcome === "retrying") counts.retried++;
      else counts[outcome as "completed" | "failed"]++;
    }
  }
  return counts;
}

/** What the scenario runs on. */
export interface HistoryTakeoverSetup {
  /** The Redis taskora and the boards use. */
  redis: TestRedis;
  /** The CLI's history flags (`--history`, or `--history-postgres <url>`). */
  historyArgs: string[];
  /** The history the boards record into, read as another replica would. */
  history: HistoryStore;
  /**
   * Bytes the leader sends to Redis once it handed a batch of the second
   * wave to the history (default: the recorder's read of ending jobs, when
   * the history is elsewhere). A history in Redis shares the leader's
   * connection, which the held save stops: its write itself (the proxy
   * holds whole commands, so a write sent before the save runs entire).
   */
  batchSent?: string;
}

/** Runs the scenario (see the module documentation). */
export async function killLeaderMidBatch(setup: HistoryTakeoverSetup): Promise<void> {
  const { redis, history } = setup;
  const proxy = startHoldingProxy(redis.port);
  const app = createTaskora({
    adapter: redisAdapter(redis.url),
    // Every job kept: the counts below are the worker's, not what retention left.
    retention: {
      completed: { maxItems: 0, maxAge: "10000d" },
      failed: { maxItems: 0, maxAge: "10000d" },
    },
  });
  const log = loggingWorker(app);
  const client = await connectClient(redis.url);
  const processes: BoardProcesses[] = [];
  const start = async (url: string) => {
    const started = await startBoardProcesses({
      count: 1,
      cliArgs: ["--redis", url, ...setup.historyArgs, ...SHORT_LEASE],
    });
    processes.push(started);
    return started.boards[0];
  };
  let dispatched = 0;
  const dispatch = async () => {
    const tasks = new Map([...app.getRegisteredTasks()].map((t: App) => [t.name, t]));
    for (let n = dispatched; n < dispatched + WAVE; n++) {
      await tasks.get("tick").dispatch({ n });
      await tasks.get("flaky").dispatch({ n });
    }
    dispatched += WAVE;
  };
  const recorded = async () => {
    const [tick, flaky] = await Promise.all(
      ["tick", "flaky"].map((task) => history.search({ task, limit: 200 })),
    );
    return tick.summaries.length + flaky.summaries.length;
  };
  try {
    await app.start();
    // The first board leads (it is alone) and reaches Redis through the proxy.
    const leader = await start(proxy.url);
    await dispatch();
    const idle = async () => {
      const counts = await Promise.all(
        ["tick", "flaky"].map((task) => app.inspect().stats({ task })),
      );
      return counts.every((c) => c.waiting + c.active + c.delayed === 0);
    };
    // The whole first wave run and recorded, its retries too: the hold below then falls on a
    // batch of the second wave, not on a late one of the first.
    await waitFor(idle, { what: "the worker to finish the first wave", limitMs: 60_000 });
    await waitFor(async () => await recorded() === 2 * WAVE, {
      what: "the first board to record the first wave",
      limitMs: 60_000,
    });

    // Mid-stream: once the leader read ending jobs (the recorder's read names its fields), their
    // batch goes to the history, then the feed's save of its ids is held, and the leader killed.
    const held = proxy.holdNext(
      respArguments("HSET", feedKeys().ids),
      setup.batchSent ?? respArguments(...RECORDED_FIELDS),
    );
    await dispatch();
    await held;
    // The feed saves its ids once a pass, not after each batch: the held save may precede the
    // write of the batch whose fields were read. A history elsewhere than the held connection is
    // written meanwhile; one on it was sent before the hold (`batchSent`).
    await waitFor(async () => await recorded() > 2 * WAVE, {
      what: "the held leader to write a batch of the second wave",
      limitMs: 60_000,
    });
    await leader.kill();
    const before = await recorded();
    assert.ok(
      before > WAVE * 2,
      `the killed leader had recorded some of the second wave (${before})`,
    );
    const feedIds = Object.fromEntries(
      Object.entries(await client.hGetAll(feedKeys().ids)),
    );
    const written = await history.cursors();
    assert.ok(
      Object.entries(written).some(([task, id]) => isLater(id, feedIds[task])),
      `the history holds a batch the feed had not saved (history ${JSON.stringify(written)}, ` +
        `feed ${JSON.stringify(feedIds)})`,
    );
    // The next board starts only now: the held leader cannot renew its lease, and a board
    // running beside it took the lease over once it ran out (3 s), and saved the feed's ids
    // before they were read above, on a loaded machine.
    await start(redis.url);
    await dispatch(); // while the other board takes over

    const total = 2 * dispatched;
    await waitFor(idle, { what: "the worker to finish every job", limitMs: 60_000 });
    await waitFor(async () => await recorded() === total, {
      what: `the next leader to record all ${total} jobs`,
      limitMs: 60_000,
    });

    for (const [task, jobs] of log) {
      assert.equal(jobs.size, dispatched, `the worker ran every ${task} job`);
      const { summaries } = await history.search({ task, limit: 200 });
      assert.equal(summaries.length, dispatched, `every ${task} job once`);
      assert.deepEqual(
        new Map(summaries.map((s) => [s.id, s.attempts.map((a) => [a.attempt, a.outcome])])),
        jobs,
        `every ${task} attempt once`,
      );
      const now = Date.now();
      const hours = await history.rollups({
        task,
        resolution: "hour",
        from: now - 3 * 3_600_000,
        to: now + 3_600_000,
      });
      const sum = (field: "arrivals" | "completed" | "failed" | "retried") =>
        hours.reduce((total, hour) => total + hour[field], 0);
      assert.deepEqual(
        {
          arrivals: sum("arrivals"),
          completed: sum("completed"),
          failed: sum("failed"),
          retried: sum("retried"),
        },
        expectedCounts(jobs.values()),
        `the ${task} rollups count each attempt once`,
      );
    }
  } finally {
    for (const started of processes) await started.stop();
    proxy.close();
    await client.close();
    await app.close();
  }
}
