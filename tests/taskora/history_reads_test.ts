/**
 * The job history's reads through the API, against a real taskora 0.5.0
 * worker on Redis: jobs taskora removed a second after they completed are
 * found by the history's search and by their summary; a job failing three
 * times shows three attempts, each with its own error; a bad field is a 400
 * naming it; payloads only with `payload.read`; a board without history
 * answers 404 `HISTORY_OFF`; Redis going away is a 503.
 */

// deno-lint-ignore-file no-explicit-any
import assert from "node:assert/strict";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { mismatch, routeOf } from "../helpers/checked_board.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { createBoardOn } from "../../src/board.ts";
import { presetCan } from "../../src/auth/permissions.ts";
import { systemTimers } from "../../src/timers.ts";
import { type AppWorld, failingThrice, taskOf, withApp } from "./harness.ts";

type Board = AppWorld["board"];

/** GET `path` under the board's API as `user` (`name:role`), its answer checked against its route. */
async function read(
  board: Board,
  path: string,
  user?: string,
): Promise<{ status: number; body: any }> {
  const response = await board.fetch(
    new Request(`http://localhost/board/api${path}`, {
      headers: user === undefined ? {} : { "x-user": user },
    }),
  );
  const route = routeOf("GET", new URL(path, "http://x").pathname);
  assert.ok(route, `a documented route for ${path}`);
  const wrong = await mismatch(route, "GET", response, { hook: user !== undefined });
  assert.equal(wrong, null, `${path}: ${wrong}`);
  return { status: response.status, body: await response.json() };
}

/** Waits until taskora holds none of `ids` of `task`. */
async function removedByTaskora(url: string, task: string, ids: readonly string[]) {
  const redis = await connectClient(url);
  try {
    await waitFor(async () => {
      const held = await Promise.all(
        ids.map((id) => redis.exists(`${taskKeys(task).jobPrefix}${id}`)),
      );
      return held.every((n) => Number(n) === 0);
    }, { what: "taskora's retention to remove every completed job" });
  } finally {
    await redis.close();
  }
}

/** Every page of a history search. */
async function searchAll(board: Board, query: string): Promise<any[]> {
  const jobs: any[] = [];
  let cursor: string | null = null;
  do {
    const more: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
    const { status, body } = await read(board, `/history/jobs?limit=200&${query}${more}`);
    assert.equal(status, 200, JSON.stringify(body));
    jobs.push(...body.jobs);
    cursor = body.next;
  } while (cursor !== null);
  return jobs;
}

/** A task whose jobs renew their lock before they end (see history_board_test.ts: no re-run). */
function sendEmail(app: any) {
  app.task("send-email", {
    stall: { interval: 100, maxCount: 50 },
    handler: (data: { n: number }, ctx: { heartbeat(): void }) => {
      ctx.heartbeat();
      return { sent: data.n };
    },
  });
}

Deno.test("500 jobs taskora removed a second after they completed are each in the history's search and summary", async () => {
  const jobs = 500;
  await withApp("redis", sendEmail, async (world) => {
    // Dispatched together (one after another, each waited for, took half the test).
    const ids = await Promise.all(
      Array.from(
        { length: jobs },
        async (_, n) => String(await taskOf(world.app, "send-email").dispatch({ n })),
      ),
    );
    await removedByTaskora(world.url, "send-email", ids);
    // The limit is a hang guard: at load ~30 recording the 500 outlasted the default 30 s.
    const found = await waitFor(async () => {
      const found = await searchAll(world.board, "task=send-email");
      return found.length === jobs && found;
    }, { what: "the recorder to record every job", limitMs: 90_000 });
    assert.deepEqual(found.map((job) => job.id).sort(), [...ids].sort());
    const ends = found.map((job) => job.finishedAt);
    assert.deepEqual(ends, [...ends].sort((a, b) => b - a), "newest first");
    assert.equal((await searchAll(world.board, "")).length, jobs, "across every task too");
    const [one] = (await read(world.board, `/history/jobs?idPrefix=${ids[7]}`)).body.jobs;
    assert.equal(one.id, ids[7]);
    for (const id of ids) {
      const { status, body } = await read(world.board, `/history/tasks/send-email/jobs/${id}`);
      assert.equal(status, 200);
      assert.equal(body.state, "completed");
      assert.deepEqual(body.attempts.map((a: any) => [a.run, a.attempt, a.outcome]), [
        [1, 1, "completed"],
      ]);
    }
    for (const id of ids) {
      const { status, body } = await read(world.board, `/jobs/${id}`);
      assert.equal(status, 200, "its job page, from the history");
      assert.equal(body.state, "completed");
      assert.equal(body.archived.at, body.archived.summary.finishedAt, "archived when it ended");
    }
    const boxed = await read(world.board, `/jobs?prefix=${ids[3].slice(0, 8)}`);
    assert.deepEqual(
      boxed.body.jobs.find((job: any) => job.id === ids[3]),
      { id: ids[3], task: "send-email", state: "completed", archived: true },
      "the job-ID box finds it too",
    );
    const missing = await read(world.board, "/history/tasks/send-email/jobs/no-such-job");
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, "JOB_NOT_FOUND");
  }, {
    boardOn: "url",
    board: { history: true },
    app: { retention: { completed: { maxAge: "1s" } } },
  });
});

Deno.test("a job failing three times: its summary holds three attempts, each with its own error, found by error text", async () => {
  const failing = failingThrice();
  await withApp("redis", failing.define, async (world) => {
    const id = String(await taskOf(world.app, "charge-card").dispatch({ amount: 5 }));
    const path = `/history/tasks/charge-card/jobs/${id}`;
    await failing.failEach(async (attempt) =>
      (await read(world.board, path)).body.attempts?.length === attempt
    );
    const { body } = await read(world.board, path);
    assert.equal(body.state, "failed");
    assert.deepEqual(body.attempts.map((a: any) => [a.attempt, a.outcome, a.error]), [
      [1, "retrying", "gateway timeout #1"],
      [2, "retrying", "gateway timeout #2"],
      [3, "failed", "gateway timeout #3"],
    ]);
    const attempts = await read(world.board, `/jobs/${id}/attempts`);
    assert.deepEqual(attempts.body.attempts.map((a: any) => a.error), [
      "gateway timeout #1",
      "gateway timeout #2",
      "gateway timeout #3",
    ], "the Attempts tab: each attempt's own error, though taskora kept the last only");
    const page = await read(world.board, `/jobs/${id}`);
    assert.equal(page.body.archived, undefined, "taskora still holds it");
    const byError = await read(world.board, "/history/jobs?error=TIMEOUT%20%231&state=failed");
    assert.deepEqual(byError.body.jobs.map((job: any) => job.id), [id]);
    const none = await read(world.board, "/history/jobs?error=timeout&state=completed");
    assert.deepEqual(none.body.jobs, []);
  }, { boardOn: "url", board: { history: true } }).finally(failing.release);
});

Deno.test("a job failing three times that taskora removed: its archived page and attempts, each error its own", async () => {
  // taskora trims what it keeps on its stall check: every 100 ms here.
  const failing = failingThrice({ stall: { interval: 100, maxCount: 50 } });
  await withApp("redis", failing.define, async (world) => {
    const id = String(await taskOf(world.app, "charge-card").dispatch({ amount: 5 }));
    await failing.failEach(async (attempt) =>
      (await read(world.board, `/history/tasks/charge-card/jobs/${id}`)).body.attempts?.length ===
        attempt
    );
    await removedByTaskora(world.url, "charge-card", [id]);
    const { status, body } = await read(world.board, `/jobs/${id}`);
    assert.equal(status, 200);
    assert.deepEqual([body.state, body.error, body.attempt], ["failed", "gateway timeout #3", 3]);
    assert.equal(body.archived.at, body.timestamps.finished);
    const attempts = await read(world.board, `/jobs/${id}/attempts`);
    assert.equal(attempts.status, 200);
    assert.deepEqual(attempts.body.attempts.map((a: any) => [a.attempt, a.outcome, a.error]), [
      [1, "retrying", "gateway timeout #1"],
      [2, "retrying", "gateway timeout #2"],
      [3, "failed", "gateway timeout #3"],
    ]);
    assert.equal(attempts.body.runs.length, 3, "a worker's run per attempt");
  }, {
    boardOn: "url",
    board: { history: true },
    app: { retention: { failed: { maxAge: "1s" } } },
  }).finally(failing.release);
});

Deno.test("history reads: a bad field is a 400 naming it, payloads need payload.read, a refused task is left out", async () => {
  await withApp("redis", sendEmail, async (world) => {
    const id = String(await taskOf(world.app, "send-email").dispatch({ n: 42 }));
    const admin = "root:admin";
    const path = `/history/tasks/send-email/jobs/${id}`;
    await waitFor(async () => (await read(world.board, path, admin)).status === 200, {
      what: "the job recorded",
    });
    for (
      const [query, param] of [
        ["state=done", "state"],
        ["state=completed,,failed", "state"],
        ["limit=201", "limit"],
        ["limit=0", "limit"],
        ["from=yesterday", "from"],
        ["to=2026-02-30", "to"],
        ["from=2000&to=1000", "from"],
        ["version=v1", "version"],
        ["cursor=nope", "cursor"],
        [`error=${"x".repeat(201)}`, "error"],
        ["task=a&task=b", "task"],
      ]
    ) {
      const { status, body } = await read(world.board, `/history/jobs?${query}`, admin);
      assert.equal(status, 400, query);
      assert.equal(body.param, param, query);
    }
    const operator = await read(world.board, path, "oz:operator");
    assert.deepEqual([operator.body.data, operator.body.result], [{ n: 42 }, { sent: 42 }]);
    const viewer = await read(world.board, path, "vic:viewer");
    assert.equal(viewer.status, 200, "a viewer reads summaries");
    assert.ok(!("data" in viewer.body) && !("result" in viewer.body), "no payloads");
    assert.equal(viewer.body.dataBytes, operator.body.dataBytes, "their sizes are no secret");
    const listed = await read(world.board, "/history/jobs", "vic:viewer");
    assert.ok(listed.body.jobs.every((job: any) => !("data" in job)));
    const nobody = await read(world.board, path, "eve:nobody-knows");
    assert.equal(nobody.status, 200, "an unknown role is a viewer");
    const refusedTask = await read(world.board, "/history/jobs?task=send-email", "mal:blocked");
    assert.equal(refusedTask.status, 403);
    assert.equal(refusedTask.body.param, "history.read");
    assert.deepEqual(
      (await read(world.board, "/history/jobs", "mal:blocked")).body.jobs,
      [],
      "a task the user may not read leaves the search across every task",
    );
  }, {
    boardOn: "url",
    board: {
      history: { payloads: true },
      auth: (request) => {
        const [name, role] = (request.headers.get("x-user") ?? "").split(":");
        return name ? { name, role } : undefined;
      },
      can: (user, action, target) =>
        user?.name === "mal"
          ? !(action === "history.read" && target === "send-email")
          : presetCan(user, action, target),
    },
  });
});

Deno.test("history reads on a board without history are 404 HISTORY_OFF; Redis away is a 503", async () => {
  const redis = await startRedis();
  const off = createBoardOn(systemTimers, redis.url, {});
  const on = createBoardOn(systemTimers, redis.url, { history: true });
  try {
    for (const path of ["/history/jobs", "/history/tasks/t/jobs/j-1"]) {
      const { status, body } = await read(off, path);
      assert.deepEqual([status, body.code], [404, "HISTORY_OFF"], path);
    }
    assert.equal((await read(on, "/history/jobs")).status, 200);
    await redis.stop();
    const away = await read(on, "/history/jobs");
    assert.deepEqual([away.status, away.body.code], [503, "STORE_UNAVAILABLE"]);
  } finally {
    await off.close();
    await on.close();
    await redis.stop();
  }
});

Deno.test("history reads redact errors and their shapes, and an error-text search never finds a job by a redacted value", async () => {
  await withApp("redis", (app: any) =>
    app.task("charge", {
      retry: { attempts: 1 },
      handler: () => {
        throw new Error(JSON.stringify({ token: "s3cret-opensesame", reason: "card declined" }));
      },
    }), async (world) => {
    const id = String(await taskOf(world.app, "charge").dispatch({}));
    const path = `/history/tasks/charge/jobs/${id}`;
    const { body } = await waitFor(async () => {
      const answer = await read(world.board, path);
      return answer.status === 200 && answer;
    }, { what: "the failure recorded" });
    const [error] = body.attempts.map((attempt: any) => attempt.error);
    assert.match(error, /card declined/);
    assert.doesNotMatch(error, /s3cret/, "the token is redacted");
    // The error's shape (its numbers masked) is made from the error as shown, not as stored.
    assert.match(body.errorShape, /card declined/);
    assert.doesNotMatch(
      JSON.stringify(body),
      /opensesame/,
      "nothing in the summary shows the token",
    );
    const found = async (text: string) =>
      (await read(world.board, `/history/jobs?error=${text}`)).body.jobs.map((job: any) => job.id);
    assert.deepEqual(await found("declined"), [id]);
    assert.deepEqual(await found("s3cret"), [], "no job found by what redaction hides");
  }, { boardOn: "url", board: { history: true, redact: ["token"] } });
});
