/**
 * What `GET /overview` costs Redis per request once the leader keeps the
 * live state, counted by Redis (`INFO commandstats`, its INFOs included), on
 * a real redis-server and fake timers: the tasks' figures from the live
 * state (every task's in one read, a page's in two), and Redis's own
 * figures (version, memory, uptime) read once a stats interval for every
 * overview, not by each; and what counts as this board's own change
 * (`src/feed/own_changes.ts`), after which the next overview reads Redis
 * rather than the live state. `tests/bench/upstream.ts`
 * times the route beside the upstream board's.
 */

import assert from "node:assert/strict";
import type { OverviewResponse } from "../../src/contract/overview.ts";
import { selectTasks } from "../../src/contract/task_list.ts";
import type { BoardOptions } from "../../src/options.ts";
import { RedisTaskSource } from "../../src/source/redis/mod.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { sourceWith } from "../helpers/source_with.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { fillRedis } from "../helpers/wire_writer.ts";

const STATS_INTERVAL = 2_000;
/**
 * The source's connect and command timeout, ms: what is counted here, not
 * when it answers. At the default 2 s, under load 30-42 the source's first
 * connection timed out and the first overview was a 503 ("Redis is not
 * reachable (reconnecting)") in 5 runs of 7.
 */
const COMMAND_TIMEOUT_MS = 30_000;

type Client = Awaited<ReturnType<typeof connectClient>>;

/**
 * A board over a Redis of 20 tasks, on fake timers, with `options`; `overview`
 * GETs `/overview` with a query, `send` any request to the API.
 */
async function withBoard(
  fn: (ctx: {
    client: Client;
    timers: FakeTimers;
    overview: (query?: string) => Promise<OverviewResponse>;
    send: (method: string, path: string, init?: RequestInit) => Promise<Response>;
  }) => Promise<void>,
  options: BoardOptions = {},
  wrap: (source: RedisTaskSource) => RedisTaskSource = (source) => source,
): Promise<void> {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  const timers = new FakeTimers();
  const source = wrap(
    new RedisTaskSource({ url: redis.url, commandTimeoutMs: COMMAND_TIMEOUT_MS }, timers),
  );
  // No history: its recorder would run the feed's passes of its own.
  const board = createBoardOn(timers, source, {
    history: false,
    statsInterval: STATS_INTERVAL,
    ...options,
  });
  const overview = async (query = "") => {
    const response = await board.fetch(
      new Request(`http://127.0.0.1/board/api/overview${query}`),
    );
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    return body as OverviewResponse;
  };
  const send = async (method: string, path: string, init: RequestInit = {}) => {
    const response = await board.fetch(
      new Request(`http://127.0.0.1/board/api${path}`, { method, ...init }),
    );
    await response.body?.cancel();
    return response;
  };
  try {
    await fillRedis(client as never, { jobs: 400, tasks: 20 });
    await fn({ client, timers, overview, send });
  } finally {
    await board.close();
    await source.close();
    await client.close();
    await redis.stop();
  }
}

Deno.test("GET /overview of every task reads the live state in one command; a page in two", async () => {
  await withBoard(async ({ client, overview }) => {
    await overview(); // notes the feed's need, waits for its first pass, reads INFO
    let every!: OverviewResponse;
    const whole = await commandsOf(client, async () => every = await overview());
    assert.deepEqual(Object.fromEntries(whole), { hget: 1 }, "no pass wrote since the last read");
    assert.equal(every.tasks.length, 20);
    assert.equal(every.matched, 20);
    assert.equal(every.totals.waiting, every.tasks.reduce((n, task) => n + task.stats.waiting, 0));

    let page!: OverviewResponse;
    const paged = await commandsOf(
      client,
      async () => page = await overview("?limit=5&sort=health"),
    );
    assert.deepEqual(Object.fromEntries(paged), { hmget: 2 }, "the index, then the page's rows");
    assert.deepEqual(page.tasks, selectTasks(every.tasks, { sort: "health", limit: 5 }).tasks);
    assert.equal(page.matched, 20);
  });
});

Deno.test("GET /overview reads Redis's INFO once a stats interval, not at each request", async () => {
  await withBoard(async ({ client, timers, overview }) => {
    const first = await overview(); // notes the feed's need and waits for its first pass
    assert.equal(first.tasks.length, 20);
    let again!: OverviewResponse;
    const kept = await commandsOf(client, async () => again = await overview(), {
      withInfo: true,
    });
    assert.equal(kept.get("info"), undefined, JSON.stringify(Object.fromEntries(kept)));
    assert.deepEqual(again.redis, first.redis);

    await timers.tick(STATS_INTERVAL);
    let later!: OverviewResponse;
    const read = await commandsOf(client, async () => later = await overview(), {
      withInfo: true,
    });
    assert.equal(read.get("info"), 2, "INFO server and INFO memory, once the interval passed");
    assert.equal(later.redis.version, first.redis.version);
  });
});

const ORIGIN = "https://ops.example";
const JSON_BODY = { headers: { "Content-Type": "application/json" }, body: "{}" };

/** Requests that change nothing, on `/tasks/<task>/...`, and what the board answers them. */
function unchanged(task: string, cors: boolean): [string, string, RequestInit, number][] {
  const preflight = { headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST" } };
  return [
    ["OPTIONS", `/tasks/${task}/retry-all`, preflight, cors ? 204 : 405],
    ["OPTIONS", `/tasks/${task}/retry-all`, {}, cors ? 204 : 405],
    // Refused by the route: a field it does not take.
    ["POST", `/tasks/${task}/retry-all`, { ...JSON_BODY, body: '{"made":1}' }, 400],
    ["POST", "/tasks/no-such-task/retry-all", JSON_BODY, 404],
    ["DELETE", `/tasks/${task}/retry-all`, JSON_BODY, 405],
    ["PROPFIND", `/tasks/${task}/jobs`, JSON_BODY, 405],
  ];
}

// On fake timers the live state's `asOf` is its pass's time, a direct read's the answer's.
for (const cors of [true, false]) {
  Deno.test(`${cors ? "with" : "without"} CORS, a request that changed nothing leaves the next overview on the live state`, async () => {
    await withBoard(async ({ timers, overview, send }) => {
      const first = await overview(); // notes the feed's need, waits for its first pass
      await timers.tick(STATS_INTERVAL / 4); // a direct read would now say a later asOf
      const task = first.tasks[0].name;
      for (const [method, path, init, status] of unchanged(task, cors)) {
        assert.equal((await send(method, path, init)).status, status, `${method} ${path}`);
        const next = await overview();
        assert.equal(next.asOf, first.asOf, `after ${method} ${path} (${status})`);
      }
    }, { cors: cors ? { origin: ORIGIN } : undefined });
  });
}

Deno.test("after a change of this board's, the next overview reads Redis, not the live state", async () => {
  await withBoard(async ({ timers, overview, send }) => {
    const first = await overview();
    await timers.tick(STATS_INTERVAL / 4);
    assert.equal((await overview()).asOf, first.asOf, "the live state, not a direct read");
    const task = first.tasks[0].name;
    assert.equal((await send("POST", `/tasks/${task}/retry-all`, JSON_BODY)).status, 200);
    assert.ok((await overview()).asOf > first.asOf);
  });
});

Deno.test("after a bulk operation of this board's ends, the next overview is not a live state written while it ran", async () => {
  // The operation's steps wait for the test: its POST answers first, a pass runs, then they run.
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await withBoard(
    async ({ timers, overview, send }) => {
      const first = await overview();
      const task = first.tasks.find((t) => t.stats.failed > 0)!;
      const started = await send("POST", "/bulk", {
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: "retry", selector: { task: task.name, state: "failed" } }),
      });
      assert.equal(started.status, 202);
      await timers.tick(STATS_INTERVAL); // the leader's pass, after the POST, before any step
      const during = await overview();
      assert.equal(failedOf(during, task.name), task.stats.failed, "not retried yet");
      release();
      await waitFor(async () => failedOf(await overview(), task.name) === 0, {
        what: "the overview to show the failed jobs retried",
      });
    },
    {},
    (source) =>
      sourceWith(source, {
        bulkStep: async (...args) => {
          await held;
          return await source.bulkStep(...args);
        },
      }),
  );
});

/** `task`'s failed count in `overview`. */
function failedOf(overview: OverviewResponse, task: string): number {
  return overview.tasks.find((t) => t.name === task)!.stats.failed;
}
