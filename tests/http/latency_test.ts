/**
 * Queue latency, rate and percentiles through the API: the overview's
 * oldest waiting job, its health and its per-minute sparkline, and
 * `GET /tasks/{task}/latency`, on the in-memory source seeded in taskora's
 * wire format.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { Fixture } from "../helpers/fixture.ts";

const MINUTE = 60_000;

/** The minute `at` falls in (ms). */
const minuteOf = (at: number) => Math.floor(at / MINUTE) * MINUTE;

function hash(fields: Record<string, string>) {
  return {
    type: "hash" as const,
    pttl: -1,
    value: { _v: "1", attempt: "1", maxAttempts: "1", data: "{}", ...fields },
  };
}

/**
 * `backlog`: two waiting jobs, the oldest dispatched 20 min ago; a delayed
 * one 3 min overdue; 42 completed and 3 failed jobs counted 5 minutes ago;
 * four finished jobs of known wait and run times.
 */
function keyspace(now: number): Fixture {
  const thisMinute = minuteOf(now);
  const base = "taskora:{backlog}";
  const finished = [
    ["c1", 100, 1_000],
    ["c2", 200, 2_000],
    ["c3", 300, 3_000],
    ["c4", 400, 60_000],
  ] as const;
  return {
    dumpedAt: now,
    keys: {
      "taskora:meta": {
        type: "hash",
        pttl: -1,
        value: { wireVersion: "6", minCompat: "6", writtenBy: "test", writtenAt: String(now) },
      },
      [`${base}:wait`]: { type: "list", pttl: -1, value: ["new-1", "old-1"] },
      [`${base}:old-1`]: hash({ state: "waiting", ts: String(now - 20 * MINUTE) }),
      [`${base}:new-1`]: hash({ state: "waiting", ts: String(now - MINUTE) }),
      [`${base}:delayed`]: {
        type: "zset",
        pttl: -1,
        value: [{ value: "late-1", score: now - 3 * MINUTE }],
      },
      [`${base}:late-1`]: hash({ state: "delayed", ts: String(now - 10 * MINUTE) }),
      [`${base}:metrics:completed:${thisMinute - 5 * MINUTE}`]: {
        type: "string",
        pttl: -1,
        value: "42",
      },
      [`${base}:metrics:failed:${thisMinute - 5 * MINUTE}`]: {
        type: "string",
        pttl: -1,
        value: "3",
      },
      [`${base}:completed`]: {
        type: "zset",
        pttl: -1,
        value: finished.map(([id, wait, run], i) => ({
          value: id,
          score: now - 3_600_000 + i * 1000 + wait + run,
        })),
      },
      ...Object.fromEntries(finished.map(([id, wait, run], i) => {
        const ts = now - 3_600_000 + i * 1000;
        return [
          `${base}:${id}`,
          hash({
            state: "completed",
            ts: String(ts),
            processedOn: String(ts + wait),
            finishedOn: String(ts + wait + run),
          }),
        ];
      })),
    },
  };
}

/**
 * Runs `body` against a board on {@link keyspace}, written as of the test's
 * start (`now`, handed to `body`): the board reads the real clock, and a
 * batch of test files may run this one minutes after it loaded.
 */
async function withBoard(
  options: BoardOptions,
  body: (get: (path: string) => Promise<Response>, now: number) => Promise<void>,
): Promise<void> {
  const now = Date.now();
  const source = createMemorySource({ seed: keyspace(now) });
  const board = createBoard(source, options);
  try {
    await body(
      (path) => Promise.resolve(board.fetch(new Request(`http://board.test${path}`))),
      now,
    );
  } finally {
    await board.close();
    await source.close();
  }
}

Deno.test("GET /overview gives each task's oldest waiting job, its overdue delayed one and its rate", async () => {
  await withBoard({}, async (get, now) => {
    const body = await (await get("/board/api/overview")).json();
    const task = body.tasks.find((t: { name: string }) => t.name === "backlog");
    assert.equal(task.latency.oldestWaiting.id, "old-1");
    assert.equal(task.latency.oldestWaiting.since, now - 20 * MINUTE);
    assert.ok(task.latency.oldestWaiting.ageMs >= 20 * MINUTE);
    assert.equal(task.latency.mostOverdue.id, "late-1");
    assert.ok(task.latency.mostOverdue.overdueMs >= 3 * MINUTE);
    // Sixty minutes, the current one last: the counted minute is the sixth from the end.
    assert.equal(task.rate.completed.length, 60);
    assert.equal(task.rate.bucketMs, MINUTE);
    assert.equal(task.rate.from, minuteOf(now) - 59 * MINUTE);
    assert.equal(task.rate.completed[54], 42);
    assert.equal(task.rate.failed[54], 3);
    assert.equal(task.rate.completed.reduce((a: number, b: number) => a + b, 0), 42);
    assert.deepEqual(task.health, {
      status: "warning",
      reason: "job old-1 waiting for 20 min (over 10 min)",
      failureRate: 3 / 45,
      noProgress: false,
    });
  });
});

Deno.test("health.maxWaitMs moves the threshold of the waiting warning", async () => {
  await withBoard({ health: { maxWaitMs: 3_600_000 } }, async (get) => {
    const body = await (await get("/board/api/overview")).json();
    const task = body.tasks.find((t: { name: string }) => t.name === "backlog");
    assert.doesNotMatch(task.health.reason, /waiting for/);
  });
});

Deno.test("GET /tasks/{task}/latency gives the queue now and the percentiles of the newest finished jobs", async () => {
  await withBoard({}, async (get, now) => {
    const response = await get("/board/api/tasks/backlog/latency");
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.task, "backlog");
    assert.equal(body.queue.oldestWaiting.id, "old-1");
    const { sample } = body;
    assert.equal(sample.sampleSize, 1000);
    assert.equal(sample.jobs, 4);
    assert.equal(sample.maxAgeMs, 10_000);
    assert.equal(sample.from, now - 3_600_000 + 100 + 1_000);
    assert.equal(sample.to, now - 3_600_000 + 3000 + 400 + 60_000);
    // Nearest rank over 4: p50 is the 2nd, p95 and p99 the 4th.
    assert.deepEqual(sample.wait.percentiles, { p50: 200, p95: 400, p99: 400 });
    assert.deepEqual(sample.run.percentiles, { p50: 2_000, p95: 60_000, p99: 60_000 });
    assert.equal(sample.wait.histogram.reduce((a: number, b: number) => a + b, 0), 4);
    // 100 ms in the ≤100 bin, 200 and 300 in ≤250 and ≤500, 400 in ≤500.
    assert.deepEqual(sample.wait.histogram.slice(0, 5), [0, 0, 1, 1, 2]);
  });
});

Deno.test("GET /tasks/{task}/latency of an unknown task is 404 TASK_NOT_FOUND", async () => {
  await withBoard({}, async (get) => {
    const response = await get("/board/api/tasks/no-such-task/latency");
    assert.equal(response.status, 404);
    assert.equal((await response.json()).code, "TASK_NOT_FOUND");
    const odd = await get("/board/api/tasks/%E2%80%AE%00x/latency");
    assert.equal(odd.status, 404);
    assert.equal((await odd.json()).code, "TASK_NOT_FOUND");
  });
});
