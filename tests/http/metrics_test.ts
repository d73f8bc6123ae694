/**
 * `GET {basePath}/metrics`: what it exposes, who may read it (the API's
 * guards, or the scrapers' bearer token), and what it refuses.
 */

import assert from "node:assert/strict";
import { createBoard, createBoardOn } from "../helpers/checked_board.ts";
import { StoreUnavailableError } from "../../src/errors.ts";
import { type BoardOptions, BoardOptionsError } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { TaskSource } from "../../src/source/types.ts";
import { epochClock } from "../../src/timers.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { livePass, liveRow } from "../helpers/live_state.ts";
import { sourceWith } from "../helpers/source_with.ts";

const TOKEN = "scrape-token-0123456789";
const SECRET = "a-cookie-secret-of-at-least-32-chars!";
const SESSION: BoardOptions["auth"] = {
  cookiePassword: SECRET,
  authenticate: () => ({ name: "ada" }),
};

function boardOf(
  options: BoardOptions,
  source: TaskSource = createMemorySource({ seed: readFixture() }),
) {
  const board = createBoard(source, options);
  const get = (path: string, headers: Record<string, string> = {}) =>
    Promise.resolve(board.fetch(new Request(`http://board.test${path}`, { headers })));
  return {
    get,
    async close() {
      await board.close();
      await source.close();
    },
  };
}

/** The value of the sample line `name{labels}` in an exposition, or undefined. */
function sampleOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function expectUnauthorized(response: Response): Promise<void> {
  assert.equal(response.status, 401);
  assert.deepEqual(await response.json(), { error: "Unauthorized" });
}

Deno.test("GET /metrics exposes jobs by state, queue ages, quantiles and the board's own numbers", async () => {
  const { get, close } = boardOf({});
  try {
    await get("/board/api/overview");
    const response = await get("/board/metrics");
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    assert.equal(sampleOf(text, 'taskora_jobs{task="send-email",state="completed"}'), 10);
    assert.equal(sampleOf(text, 'taskora_jobs{task="send-email",state="failed"}'), 5);
    assert.equal(sampleOf(text, 'taskora_oldest_waiting_seconds{task="send-email"}'), 0);
    assert.equal(sampleOf(text, 'taskora_latency_sample_jobs{task="send-email"}'), 15);
    for (const quantile of ["0.5", "0.95", "0.99"]) {
      const wait = sampleOf(
        text,
        `taskora_job_wait_seconds{task="send-email",quantile="${quantile}"}`,
      );
      assert.ok(wait !== undefined && wait >= 0, `wait ${quantile}`);
    }
    assert.match(
      text,
      /^taskora_jobs_finished_last_minute\{task="send-email",outcome="failed"\} \d+$/m,
    );
    assert.equal(sampleOf(text, "queue_board_sse_clients"), 0);
    assert.equal(
      sampleOf(
        text,
        'queue_board_http_request_duration_seconds_count{method="GET",route="/board/api/overview",status="200"}',
      ),
      1,
    );
    assert.match(text, /# TYPE queue_board_store_errors_total counter/);
  } finally {
    await close();
  }
});

Deno.test("every board has its own registry: one board's requests are not in another's metrics", async () => {
  const a = boardOf({});
  const b = boardOf({ basePath: "/other" });
  try {
    await a.get("/board/api/overview");
    const text = await (await b.get("/other/metrics")).text();
    assert.doesNotMatch(text, /route="\/board\/api\/overview"/);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("GET /metrics counts the store's errors the board answered with", async () => {
  const source = createMemorySource({ seed: readFixture() });
  let down = false;
  // The counts, read alone or with the heads (the source's parts read each on their own).
  const getStats = source.getStats.bind(source);
  source.getStats = (tasks) =>
    down ? Promise.reject(new StoreUnavailableError("Redis is not reachable")) : getStats(tasks);
  const getQueueSnapshots = source.getQueueSnapshots.bind(source);
  source.getQueueSnapshots = (tasks) =>
    down
      ? Promise.reject(new StoreUnavailableError("Redis is not reachable"))
      : getQueueSnapshots(tasks);
  const { get, close } = boardOf({}, source);
  try {
    down = true;
    assert.equal((await get("/board/api/overview")).status, 503);
    // A scrape while the store is down is a 503 too, and counted.
    const failed = await get("/board/metrics");
    assert.equal(failed.status, 503);
    assert.equal((await failed.json()).code, "STORE_UNAVAILABLE");
    down = false;
    const text = await (await get("/board/metrics")).text();
    assert.equal(sampleOf(text, 'queue_board_store_errors_total{code="STORE_UNAVAILABLE"}'), 2);
  } finally {
    await close();
  }
});

Deno.test("under session login /metrics is 401 without a session, never the login page", async () => {
  const { get, close } = boardOf({ auth: SESSION });
  try {
    await expectUnauthorized(await get("/board/metrics"));
  } finally {
    await close();
  }
});

Deno.test("metrics.token admits a scraper without a session; a wrong or malformed token is 401", async () => {
  const { get, close } = boardOf({ auth: SESSION, metrics: { token: TOKEN } });
  try {
    const ok = await get("/board/metrics", { authorization: `Bearer ${TOKEN}` });
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /^taskora_jobs\{/m);
    for (
      const header of [
        `Bearer ${TOKEN}x`,
        `Bearer ${TOKEN.slice(0, -1)}`,
        `Basic ${btoa(`x:${TOKEN}`)}`,
        `Bearer`,
        `Bearer ${TOKEN} extra`,
      ]
    ) {
      const refused = await get("/board/metrics", { authorization: header });
      assert.equal(refused.headers.get("www-authenticate"), 'Bearer realm="queue-board metrics"');
      await expectUnauthorized(refused);
    }
    // The token opens the metrics only, never the API.
    await expectUnauthorized(
      await get("/board/api/overview", { authorization: `Bearer ${TOKEN}` }),
    );
  } finally {
    await close();
  }
});

Deno.test("with a token and no login, the token is required", async () => {
  const { get, close } = boardOf({ metrics: { token: TOKEN } });
  try {
    await expectUnauthorized(await get("/board/metrics"));
    assert.equal((await get("/board/metrics", { authorization: `Bearer ${TOKEN}` })).status, 200);
  } finally {
    await close();
  }
});

Deno.test("the auth hook guards /metrics like the API", async () => {
  const hook = (request: Request) =>
    request.headers.get("x-user") === "ops" ? { name: "ops" } : new Response("no", { status: 403 });
  const { get, close } = boardOf({ auth: hook, metrics: { token: TOKEN } });
  try {
    assert.equal((await get("/board/metrics")).status, 403);
    assert.equal((await get("/board/metrics", { "x-user": "ops" })).status, 200);
    assert.equal((await get("/board/metrics", { authorization: `Bearer ${TOKEN}` })).status, 200);
  } finally {
    await close();
  }
});

Deno.test("with the auth hook, a bearer that is not the metrics token goes on to the hook", async () => {
  const HOOK_CREDENTIAL = "hook-issued-credential-42";
  const hook = (request: Request) =>
    request.headers.get("authorization") === `Bearer ${HOOK_CREDENTIAL}`
      ? { name: "ops" }
      : new Response("no", { status: 403 });
  const { get, close } = boardOf({ auth: hook, metrics: { token: TOKEN } });
  try {
    const admitted = await get("/board/metrics", { authorization: `Bearer ${HOOK_CREDENTIAL}` });
    assert.equal(admitted.status, 200);
    assert.match(await admitted.text(), /^taskora_jobs\{/m);
    assert.equal((await get("/board/metrics", { authorization: `Bearer ${TOKEN}` })).status, 200);
    // Neither the token nor the hook's credential: the hook answers, not the token's 401.
    for (const header of [`Bearer ${TOKEN}x`, `Basic ${btoa(`x:${TOKEN}`)}`]) {
      const refused = await get("/board/metrics", { authorization: header });
      assert.equal(refused.status, 403);
      assert.equal(await refused.text(), "no");
    }
  } finally {
    await close();
  }
});

Deno.test("metrics: false removes the route (the path is the UI's, which has no such page)", async () => {
  const { get, close } = boardOf({ metrics: false });
  try {
    const response = await get("/board/metrics");
    assert.doesNotMatch(response.headers.get("content-type") ?? "", /text\/plain/);
    assert.doesNotMatch(await response.text(), /taskora_jobs/);
  } finally {
    await close();
  }
});

/** A memory source whose tasks hold the given numbers of waiting jobs. */
function waitingJobs(tasks: Record<string, number>): TaskSource {
  const keys: Record<string, { type: string; pttl: number; value: unknown }> = {};
  const ts = String(Date.now());
  for (const [task, count] of Object.entries(tasks)) {
    const base = `taskora:{${task}}`;
    const ids = Array.from({ length: count }, (_, j) => `j${j}`);
    keys[`${base}:wait`] = { type: "list", pttl: -1, value: ids };
    for (const id of ids) {
      keys[`${base}:${id}`] = {
        type: "hash",
        pttl: -1,
        value: { state: "waiting", ts, _v: "1", attempt: "1" },
      };
    }
  }
  return createMemorySource({ seed: { dumpedAt: Date.now(), keys } as never });
}

/** `count` tasks, `task-<i>` holding i + 1 waiting jobs. */
function manyTasks(count: number): TaskSource {
  return waitingJobs(
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`task-${i}`, i + 1])),
  );
}

/** The distinct `task` label values of a metric in an exposition. */
function taskLabels(text: string, metric: string): Set<string> {
  const pattern = new RegExp(`^${metric}\\{task="([^"]*)"`, "gm");
  return new Set([...text.matchAll(pattern)].map((match) => match[1]));
}

Deno.test('metrics.maxTasks: the tasks holding the most jobs get their own series, the rest are summed under task="(other)"', async () => {
  const { get, close } = boardOf({ metrics: { maxTasks: 3 } }, manyTasks(8));
  try {
    const text = await (await get("/board/metrics")).text();
    const own = ["task-7", "task-6", "task-5"];
    for (const metric of ["taskora_jobs", "taskora_oldest_waiting_seconds"]) {
      assert.deepEqual(taskLabels(text, metric), new Set([...own, "(other)"]), metric);
    }
    assert.equal(sampleOf(text, 'taskora_jobs{task="task-7",state="waiting"}'), 8);
    // task-0 … task-4 hold 1 + 2 + 3 + 4 + 5 waiting jobs.
    assert.equal(sampleOf(text, 'taskora_jobs{task="(other)",state="waiting"}'), 15);
    assert.equal(sampleOf(text, 'taskora_jobs{task="(other)",state="failed"}'), 0);
    // Quantiles cannot be summed: the rest have none, and their samples are not read.
    assert.deepEqual(taskLabels(text, "taskora_latency_sample_jobs"), new Set(own));
  } finally {
    await close();
  }
});

Deno.test('metrics.maxTasks defaults to 500: a board with 520 tasks exposes 500 of them and "(other)"', async () => {
  const { get, close } = boardOf({}, manyTasks(520));
  try {
    const text = await (await get("/board/metrics")).text();
    const labels = taskLabels(text, "taskora_jobs");
    assert.equal(labels.size, 501);
    assert.ok(labels.has("(other)"));
    assert.ok(!labels.has("task-19") && labels.has("task-20"));
  } finally {
    await close();
  }
});

Deno.test('a task named "(other)" never gets a series of its own: it is counted in the sum', async () => {
  const { get, close } = boardOf(
    { metrics: { maxTasks: 1 } },
    waitingJobs({ "(other)": 100, a: 5, b: 1 }),
  );
  try {
    const text = await (await get("/board/metrics")).text();
    assert.deepEqual(taskLabels(text, "taskora_jobs"), new Set(["a", "(other)"]));
    const lines = text.split("\n").filter((l) =>
      l.startsWith('taskora_jobs{task="(other)",state="waiting"}')
    );
    assert.deepEqual(lines, ['taskora_jobs{task="(other)",state="waiting"} 101']);
  } finally {
    await close();
  }
});

Deno.test("bad metrics and health options throw, naming the option", () => {
  const source = createMemorySource();
  const bad: [BoardOptions, RegExp][] = [
    [{ metrics: { token: "short" } }, /"metrics\.token"/],
    [{ metrics: { token: `${TOKEN} with spaces` } }, /"metrics\.token"/],
    [{ metrics: { token: 42 as unknown as string } }, /"metrics\.token"/],
    [{ metrics: { tokn: TOKEN } as unknown as BoardOptions["metrics"] }, /"metrics\.tokn"/],
    [{ metrics: true as unknown as BoardOptions["metrics"] }, /"metrics"/],
    [{ metrics: { maxTasks: 0 } }, /"metrics\.maxTasks"/],
    [{ metrics: { maxTasks: 501 } }, /"metrics\.maxTasks"/],
    [{ metrics: { maxTasks: 2.5 } }, /"metrics\.maxTasks"/],
    [{ metrics: { maxTasks: "9" as unknown as number } }, /"metrics\.maxTasks"/],
    [{ health: { maxWaitMs: 10 } }, /"health\.maxWaitMs"/],
    [{ health: { maxWaitMs: 1.5e3 + 0.5 } }, /"health\.maxWaitMs"/],
    [{ health: { maxIdleMs: 999 } }, /"health\.maxIdleMs"/],
    [{ health: { maxIdleMs: "5m" as unknown as number } }, /"health\.maxIdleMs"/],
    [{ health: { maxWait: 1000 } as unknown as BoardOptions["health"] }, /"health\.maxWait"/],
    [{ health: null as unknown as BoardOptions["health"] }, /"health"/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => createBoard(source, options), (error: Error) => {
      assert.ok(error instanceof BoardOptionsError);
      assert.match(error.message, message);
      return true;
    });
  }
});

Deno.test("a task name cannot forge a sample line: label values are escaped", async () => {
  const task = 'we"ird\\\ntaskora_jobs{task="forged"} 1';
  const base = `taskora:{${task}}`;
  const source = createMemorySource({
    seed: {
      dumpedAt: Date.now(),
      keys: {
        [`${base}:wait`]: { type: "list", pttl: -1, value: ["j1"] },
        [`${base}:j1`]: {
          type: "hash",
          pttl: -1,
          value: { state: "waiting", ts: String(Date.now()), _v: "1", attempt: "1" },
        },
      },
    },
  });
  const { get, close } = boardOf({}, source);
  try {
    const text = await (await get("/board/metrics")).text();
    assert.doesNotMatch(text, /^taskora_jobs\{task="forged"\}/m);
    assert.equal(
      sampleOf(
        text,
        'taskora_jobs{task="we\\"ird\\\\\\ntaskora_jobs{task=\\"forged\\"} 1",state="waiting"}',
      ),
      1,
    );
  } finally {
    await close();
  }
});

Deno.test("a scrape shows the live state while it is at most one interval old, and when it was true, reading no task", async () => {
  const memory = createMemorySource();
  memory.store.enqueue("mail", { id: "m1", data: {} });
  let reads = 0;
  const source = sourceWith(memory, {
    getQueueSnapshots: (tasks) => (reads++, memory.getQueueSnapshots(tasks)),
  });
  const timers = new FakeTimers();
  const asOf = epochClock(timers)();
  const minute = Math.floor(asOf / 60_000) * 60_000;
  // Every minute of the row's hour and the next finished 4 and failed 1: whichever is the last closed.
  const finished = (n: number) => Array(62).fill(n);
  await memory.boardStore.feed!.writeLiveState(livePass(asOf, [
    liveRow("mail", { waiting: 7 }, {
      heads: {
        oldestWaiting: { id: "m9", since: asOf - 30_000 },
        oldestActive: null,
        nextDue: { id: "m8", at: asOf - 5_000 },
      },
      rate: {
        from: minute - 60 * 60_000,
        bucketMs: 60_000,
        completed: finished(4),
        failed: finished(1),
      },
    }),
  ]));
  // The leader is another board: this one keeps no live state of its own.
  await memory.boardStore.holdLease("board", "the-leader", 3_600_000);
  const board = createBoardOn(timers, source, { statsInterval: 3000 });
  const scrape = async () =>
    await (await board.fetch(new Request("http://board.test/board/metrics"))).text();
  try {
    const text = await scrape();
    assert.equal(sampleOf(text, 'taskora_jobs{task="mail",state="waiting"}'), 7);
    const waited = sampleOf(text, 'taskora_oldest_waiting_seconds{task="mail"}')!;
    assert.ok(waited >= 30 && waited < 31, `${waited} s`);
    const overdue = sampleOf(text, 'taskora_delayed_overdue_seconds{task="mail"}')!;
    assert.ok(overdue >= 5 && overdue < 6, `${overdue} s`);
    assert.equal(
      sampleOf(text, 'taskora_jobs_finished_last_minute{task="mail",outcome="failed"}'),
      1,
    );
    assert.equal(sampleOf(text, "queue_board_task_figures_timestamp_seconds"), asOf / 1000);
    assert.equal(reads, 0, "no task read");

    // Older than one interval: the scrape reads the tasks itself, and says so.
    await memory.boardStore.feed!.writeLiveState({ asOf: asOf - 3_001 });
    const direct = await scrape();
    assert.equal(sampleOf(direct, 'taskora_jobs{task="mail",state="waiting"}'), 1);
    assert.ok(sampleOf(direct, "queue_board_task_figures_timestamp_seconds")! >= asOf / 1000);
    assert.equal(reads, 1);
  } finally {
    await board.close();
    await memory.close();
  }
});

Deno.test("a scrape notes the change feed's need, so the leader keeps the live state the next scrapes show", async () => {
  const source = createMemorySource();
  const board = createBoardOn(new FakeTimers(), source, {});
  try {
    assert.equal(await source.boardStore.feed!.hasFeedDemand(), false);
    await (await board.fetch(new Request("http://board.test/board/metrics"))).text();
    assert.equal(await source.boardStore.feed!.hasFeedDemand(), true);
  } finally {
    await board.close();
    await source.close();
  }
});

Deno.test("made-up methods and paths add no series: the request histogram's labels are bounded", async () => {
  const board = createBoard(createMemorySource({ seed: readFixture() }), {});
  try {
    // JSON, so the same-origin guard lets them through to the routes' fallback.
    const made = (path: string, method: string) =>
      board.fetch(
        new Request(`http://board.test${path}`, {
          method,
          headers: { "Content-Type": "application/json" },
        }),
      );
    for (let i = 0; i < 50; i++) {
      const path = `/board/api/made-up-${i}`;
      assert.equal((await made(path, `VERB${i}`)).status, 404);
      assert.equal((await made("/board/api/overview", `X${i}`)).status, 405);
      assert.equal((await made(path, "GET")).status, 404);
    }
    const text = await (await board.fetch(new Request("http://board.test/board/metrics"))).text();
    const series = new Set(
      text.split("\n")
        .filter((line) => line.startsWith("queue_board_http_request_duration_seconds_count{"))
        .map((line) => line.slice(0, line.lastIndexOf(" "))),
    );
    assert.ok(series.size > 0 && series.size <= 4, [...series].join("\n"));
    assert.ok(
      series.has(
        'queue_board_http_request_duration_seconds_count{method="other",route="/board/api/*",status="405"}',
      ),
      [...series].join("\n"),
    );
  } finally {
    await board.close();
  }
});
