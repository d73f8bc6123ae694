/**
 * The TaskSource contract for the lookups behind health and search:
 * the heads of `getQueueSnapshots` (the job waiting longest, the job active
 * longest, the delayed job due first), `getFinishedTimings` (the newest finished jobs'
 * times) and
 * `findJobsByIdPrefix` (jobs by the start of their id, once listed) and
 * `findJobTask` (the task holding a job id), read from the same keyspace by
 * every source.
 */

import assert from "node:assert/strict";
import { type Fixture as KeyspaceDump, fixtureTime, readFixture } from "../helpers/fixture.ts";
import type { Seed } from "./source_contract.ts";
import type { QueueHeads, TaskSource } from "../../src/source/types.ts";

/** Each task's heads, as its queue snapshot reads them. */
async function headsOf(source: TaskSource, tasks: string[]): Promise<Map<string, QueueHeads>> {
  const snapshots = await source.getQueueSnapshots(tasks);
  return new Map([...snapshots].map(([task, { heads }]) => [task, heads]));
}

const T = fixtureTime(1795345700000);

/**
 * Two active jobs (the list's head is the one claimed last), a delayed and a
 * retrying one, two on the wait list and a retried one in the prioritized
 * set whose last attempt started at `retriedStart`.
 */
function withBusyBilling(dump: KeyspaceDump, retriedStart = T - 200): KeyspaceDump {
  const base = "taskora:{billing}";
  const job = (state: string, fields: Record<string, string>) => ({
    type: "hash" as const,
    pttl: -1,
    value: { state, _v: "1", attempt: "1", maxAttempts: "1", data: "{}", ts: String(T), ...fields },
  });
  return {
    ...dump,
    keys: {
      ...dump.keys,
      [`${base}:active`]: { type: "list", pttl: -1, value: ["a-new", "a-old"] },
      [`${base}:a-new`]: job("active", { processedOn: String(T + 500) }),
      [`${base}:a-old`]: job("active", { processedOn: String(T + 100) }),
      [`${base}:delayed`]: {
        type: "zset",
        pttl: -1,
        value: [{ value: "d-later", score: T + 9000 }, { value: "r-first", score: T + 2000 }],
      },
      [`${base}:d-later`]: job("delayed", {}),
      [`${base}:r-first`]: job("retrying", { attempt: "2", maxAttempts: "3" }),
      // The wait list's tail (w-tail) waits from its run-at; w-head came later.
      [`${base}:wait`]: { type: "list", pttl: -1, value: ["w-head", "w-tail"] },
      [`${base}:w-head`]: job("waiting", { ts: String(T + 50) }),
      [`${base}:w-tail`]: job("waiting", { ts: String(T - 4000), delay: "3000" }),
      // The prioritized set's head is a retried job: it waits from its last start, later still.
      [`${base}:prioritized`]: {
        type: "zset",
        pttl: -1,
        value: [{ value: "p-first", score: -5e13 + T - 9000 }],
      },
      [`${base}:p-first`]: job("waiting", {
        ts: String(T - 9000),
        priority: "5",
        attempt: "2",
        processedOn: String(retriedStart),
      }),
    },
  };
}

/** Finished billing jobs: three completed and two failed, one of which never ran. */
function withFinishedBilling(dump: KeyspaceDump): KeyspaceDump {
  const base = "taskora:{billing}";
  const job = (state: string, id: number, fields: Record<string, string>) => [
    `${base}:f${id}`,
    {
      type: "hash" as const,
      pttl: -1,
      value: {
        state,
        _v: "1",
        attempt: "1",
        maxAttempts: "1",
        ts: String(T + id * 1000),
        ...fields,
      },
    },
  ];
  const at = (id: number, wait: number, run: number) => ({
    processedOn: String(T + id * 1000 + wait),
    finishedOn: String(T + id * 1000 + wait + run),
  });
  const finished = (ids: number[]) =>
    ids.map((id) => {
      const { finishedOn } = at(id, id * 10, id * 100);
      return { value: `f${id}`, score: Number(finishedOn) };
    });
  return {
    ...dump,
    keys: {
      ...dump.keys,
      [`${base}:completed`]: { type: "zset", pttl: -1, value: finished([1, 2, 4]) },
      [`${base}:failed`]: {
        type: "zset",
        pttl: -1,
        value: [...finished([3]), { value: "f5", score: T + 9000 }],
      },
      ...Object.fromEntries([
        job("completed", 1, at(1, 10, 100)),
        job("completed", 2, at(2, 20, 200)),
        job("failed", 3, { ...at(3, 30, 300), delay: "5" }),
        job("completed", 4, at(4, 40, 400)),
        job("failed", 5, { finishedOn: String(T + 9000) }),
      ]),
    },
  };
}

/**
 * A `backlog` task whose longest-waiting jobs are at neither next-to-run
 * end: `starved`, the oldest of 40 prioritized jobs, at priority 1 behind 39
 * at priority 5; `put-back`, the oldest of 40 in the wait list, pushed back
 * to its head (as taskora does on a concurrency-key block) behind 39 newer.
 */
function withHiddenOldest(dump: KeyspaceDump, kind: "starved" | "put-back"): KeyspaceDump {
  const base = "taskora:{backlog}";
  const keys = { ...dump.keys };
  const newer = Array.from({ length: 39 }, (_, i) => `n${i}`);
  const hash = (ts: number, priority: number) => ({
    type: "hash" as const,
    pttl: -1,
    value: {
      state: "waiting",
      _v: "1",
      attempt: "1",
      maxAttempts: "1",
      ts: String(ts),
      priority: String(priority),
    },
  });
  newer.forEach((id, i) => keys[`${base}:${id}`] = hash(T + 1000 + i, kind === "starved" ? 5 : 0));
  keys[`${base}:${kind}`] = hash(T - 20_000, kind === "starved" ? 1 : 0);
  if (kind === "starved") {
    keys[`${base}:prioritized`] = {
      type: "zset",
      pttl: -1,
      value: [
        ...newer.map((id, i) => ({ value: id, score: -5 * 1e13 + T + 1000 + i })),
        { value: "starved", score: -1 * 1e13 + T - 20_000 },
      ],
    };
  } else {
    // The list reads head first: the put-back job, then the newest, down to the oldest at the tail.
    keys[`${base}:wait`] = { type: "list", pttl: -1, value: ["put-back", ...newer.toReversed()] };
  }
  return { ...dump, keys };
}

const TWINS = ["c0ffee00-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000002"];

/** Two waiting send-email jobs whose ids share their first 34 characters. */
function withTwins(dump: KeyspaceDump): KeyspaceDump {
  const base = "taskora:{send-email}";
  const keys = { ...dump.keys };
  keys[`${base}:wait`] = { type: "list", pttl: -1, value: [...TWINS].reverse() };
  for (const id of TWINS) {
    keys[`${base}:${id}`] = {
      type: "hash",
      pttl: -1,
      value: { state: "waiting", _v: "1", attempt: "1", maxAttempts: "1", ts: String(T) },
    };
  }
  return { ...dump, keys };
}

/** Registers the lookup contract for one source. */
export function lookupContract(name: string, seed: Seed): void {
  Deno.test(`${name}: finds listed jobs by the start of their id`, async () => {
    const harness = await seed(withTwins(readFixture()));
    try {
      const { source } = harness;
      await source.listJobs("send-email", "waiting", 0, 10);
      const [failed] = (await source.listJobs("send-email", "failed", 0, 1)).jobs;
      const twins = TWINS.map((id) => ({ id, task: "send-email", state: "waiting" }));
      assert.deepEqual(await source.findJobsByIdPrefix("c0ffee00", 10), twins);
      assert.deepEqual(await source.findJobsByIdPrefix("c0ffee00", 1), [twins[0]]);
      assert.deepEqual(await source.findJobsByIdPrefix(TWINS[1], 10), [twins[1]]);
      assert.deepEqual(await source.findJobsByIdPrefix(failed.id.slice(0, 8), 10), [
        { id: failed.id, task: "send-email", state: "failed" },
      ]);
      assert.deepEqual(await source.findJobsByIdPrefix("no-such-prefix", 10), []);
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: finds the task holding a job, by its id alone`, async () => {
    const harness = await seed(withBusyBilling(readFixture()));
    try {
      const { source } = harness;
      assert.ok(
        source.findJobTask,
        "every store adapter looks the task up without reading the job",
      );
      assert.equal(await source.findJobTask("7deea1e0-af8c-4c24-bb84-c89069ee4b0a"), "send-email");
      assert.equal(await source.findJobTask("w-tail"), "billing");
      assert.equal(await source.findJobTask("no-such-job"), null);
      assert.equal(await source.findJobTask("wait"), null, "a task's list is no job");
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: reads the job active longest and the one due first, per task`, async () => {
    const harness = await seed(withBusyBilling(readFixture()));
    try {
      const heads = await headsOf(harness.source, [
        "billing",
        "transcode",
        "resize-image",
        "sum",
        "no-such-task",
      ]);
      assert.deepEqual(heads.get("billing"), {
        oldestWaiting: { id: "w-tail", since: T - 1000 },
        oldestActive: { id: "a-old", since: T + 100 },
        nextDue: { id: "r-first", at: T + 2000 },
      });
      assert.deepEqual(heads.get("transcode"), {
        oldestWaiting: null,
        oldestActive: {
          id: "d8e1df37-39dd-4863-9508-f7c9bd517880",
          since: fixtureTime(1795345687928),
        },
        nextDue: null,
      });
      assert.deepEqual(heads.get("resize-image"), {
        oldestWaiting: null,
        oldestActive: null,
        nextDue: { id: "29edcd55-6a5a-4d7f-ae0c-3919ab99f8e9", at: fixtureTime(1795349287498) },
      });
      const none = { oldestWaiting: null, oldestActive: null, nextDue: null };
      assert.deepEqual(heads.get("sum"), none);
      assert.deepEqual(heads.get("no-such-task"), none);
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: a queue snapshot is the task's counts, heads and stalled jobs, read together`, async () => {
    const harness = await seed(withBusyBilling(readFixture()));
    try {
      const { source } = harness;
      const tasks = ["billing", "send-email", "resize-image", "no-such-task"];
      const [snapshots, stats] = await Promise.all([
        source.getQueueSnapshots(tasks),
        source.getStats(tasks),
      ]);
      assert.deepEqual([...snapshots.keys()], tasks);
      for (const task of tasks) {
        // The dump holds no lock: every active job is stalled.
        const active = stats.get(task)!.active;
        assert.deepEqual(snapshots.get(task)?.stats, stats.get(task));
        assert.deepEqual(snapshots.get(task)?.stalled, { total: active, checked: active });
      }
      assert.deepEqual(snapshots.get("billing")?.stalled, { total: 2, checked: 2 });
      assert.equal(snapshots.get("billing")?.heads.oldestActive?.id, "a-old");
      assert.ok((snapshots.get("send-email")?.stats.failed ?? 0) > 0);
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: the oldest waiting job is the prioritized head when it waits longer`, async () => {
    // The retried prioritized job restarted before the wait list's tail became runnable.
    const harness = await seed(withBusyBilling(readFixture(), T - 2500));
    try {
      const heads = await headsOf(harness.source, ["billing"]);
      assert.deepEqual(heads.get("billing")?.oldestWaiting, { id: "p-first", since: T - 2500 });
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: the oldest waiting job is found at either end of a queue: a low priority starving behind higher ones, a job put back at the list's head`, async () => {
    for (const kind of ["starved", "put-back"] as const) {
      const harness = await seed(withHiddenOldest(readFixture(), kind));
      try {
        const [snapshot] = (await harness.source.getQueueSnapshots(["backlog"])).values();
        assert.deepEqual(snapshot.heads.oldestWaiting, { id: kind, since: T - 20_000 }, kind);
      } finally {
        await harness.close();
      }
    }
  });

  Deno.test(`${name}: a failed delayed job retried waits from its retry, not past it`, async () => {
    const harness = await seed(withFinishedBilling(readFixture()));
    try {
      const { source } = harness;
      const before = Date.now();
      await source.retryJob("f3");
      const heads = await headsOf(source, ["billing"]);
      const waiting = heads.get("billing")?.oldestWaiting;
      assert.equal(waiting?.id, "f3");
      // A fresh dispatch has no delay left: it waits from the retry (ts), not ts + its old delay.
      assert.ok(waiting.since >= before && waiting.since <= Date.now(), `since ${waiting.since}`);
    } finally {
      await harness.close();
    }
  });

  Deno.test(`${name}: reads the newest finished jobs' times, completed and failed together`, async () => {
    const harness = await seed(withFinishedBilling(readFixture()));
    try {
      const { source } = harness;
      const newest = await source.getFinishedTimings("billing", 3);
      assert.deepEqual(newest, [
        { id: "f5", createdAt: T + 5000, delay: 0, processedAt: null, finishedAt: T + 9000 },
        { id: "f4", createdAt: T + 4000, delay: 0, processedAt: T + 4040, finishedAt: T + 4440 },
        { id: "f3", createdAt: T + 3000, delay: 5, processedAt: T + 3030, finishedAt: T + 3330 },
      ]);
      // Down to a finish time, inclusive: what a kept sample reads to catch up.
      const since = await source.getFinishedTimings("billing", 100, T + 3330);
      assert.deepEqual(since.map((t) => t.id), ["f5", "f4", "f3"]);
      const all = await source.getFinishedTimings("billing", 100);
      assert.equal(all.length, 5);
      assert.deepEqual(all[4], {
        id: "f1",
        createdAt: T + 1000,
        delay: 0,
        processedAt: T + 1010,
        finishedAt: T + 1110,
      });
      assert.deepEqual(await source.getFinishedTimings("billing", 0), []);
      await assert.rejects(source.getFinishedTimings("no-such-task", 10), {
        code: "TASK_NOT_FOUND",
      });
    } finally {
      await harness.close();
    }
  });
}
