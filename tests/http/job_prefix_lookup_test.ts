/**
 * `GET /jobs?prefix=`: the jobs of every task whose id starts with a prefix,
 * each with its state now, on the memory source and on a real Redis holding
 * the taskora fixture (where the board finds the ids it listed lately). At
 * most 20; under auth only the jobs of tasks the user may search, which
 * neither show nor count toward `more`; a prefix too short or too long is a
 * 400 naming `prefix`.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { type Fixture, readFixture, writeKeyspace } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import type { BoardOptions } from "../../src/options.ts";
import type { JobLookup } from "../../src/contract/job_lookup.ts";

const MAIL = ["c0ffee00-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000002"];
/** 21 report jobs: one more than a lookup lists. */
const REPORTS = Array.from(
  { length: 21 },
  (_, n) => `c0ffee00-0000-4000-8000-1000000000${String(n).padStart(2, "0")}`,
);

/** The fixture with the jobs above waiting in `send-email` and `report`. */
function withPrefixJobs(): Fixture {
  const dump = readFixture();
  const keys = { ...dump.keys };
  for (const [task, ids] of [["send-email", MAIL], ["report", REPORTS]] as const) {
    const wait = keys[`taskora:{${task}}:wait`];
    const queued = wait?.type === "list" ? wait.value as string[] : [];
    keys[`taskora:{${task}}:wait`] = { type: "list", pttl: -1, value: [...ids, ...queued] };
    for (const id of ids) {
      keys[`taskora:{${task}}:${id}`] = {
        type: "hash",
        pttl: -1,
        value: { state: "waiting", _v: "1", attempt: "1", maxAttempts: "1", ts: "1" },
      };
    }
  }
  return { ...dump, keys };
}

type Call = (path: string, user?: string, init?: RequestInit) => Promise<Response>;

/** Everyone searches everything but `bob`, who may not search `report`. */
const options: BoardOptions = {
  auth: (request) => {
    const name = request.headers.get("x-user");
    return name ? { name, role: "admin" } : undefined;
  },
  can: (user, action, target) =>
    !(user?.name === "bob" && action === "search" && target === "report"),
};

/** Runs `body` on a memory board and on a Redis board, each seeded with {@link withPrefixJobs}. */
function lookupTest(name: string, body: (call: Call) => Promise<void>) {
  for (const on of ["memory", "redis"] as const) {
    Deno.test(`${name} (${on})`, async () => {
      const dump = withPrefixJobs();
      const redis = on === "redis" ? await startRedis() : null;
      if (redis) await writeKeyspace(redis.url, dump);
      const board = createBoard(
        redis ? redis.url : createMemorySource({ seed: dump }),
        options,
      );
      try {
        await body(async (path, user = "ada", init) => {
          const headers = { "x-user": user, ...init?.headers };
          const url = `http://board.test/board/api${path}`;
          return await board.fetch(new Request(url, { ...init, headers }));
        });
      } finally {
        await board.close();
        await redis?.stop();
      }
    });
  }
}

/** Lists the pages that show the jobs above (on Redis, what makes their ids findable). */
async function listPages(call: Call): Promise<void> {
  for (const task of ["send-email", "report"]) {
    await (await call(`/tasks/${task}/jobs?state=waiting&limit=100`)).body?.cancel();
  }
}

async function lookup(call: Call, prefix: string, user?: string): Promise<JobLookup> {
  const response = await call(`/jobs?${new URLSearchParams({ prefix })}`, user);
  assert.equal(response.status, 200, prefix);
  return await response.json();
}

lookupTest("finds listed jobs of every task by the start of their id", async (call) => {
  await listPages(call);
  const found = await lookup(call, "c0ffee00");
  assert.equal(found.more, true, "21 + 2 jobs match; 20 are listed");
  assert.deepEqual(
    found.jobs.map((job) => `${job.task} ${job.id} ${job.state}`),
    [
      ...MAIL.map((id) => `send-email ${id} waiting`),
      ...REPORTS.slice(0, 18).map((id) => `report ${id} waiting`),
    ],
  );
  assert.deepEqual(await lookup(call, "c0ffee00-0000-4000-8000-0000"), {
    jobs: MAIL.map((id) => ({ id, task: "send-email", state: "waiting" })),
    more: false,
  });
  assert.deepEqual(await lookup(call, "no-such-job"), { jobs: [], more: false });
});

lookupTest("a match shows its state now, not when it was listed", async (call) => {
  await listPages(call);
  const cancelled = await call(`/jobs/${MAIL[0]}/cancel`, "ada", {
    method: "POST",
    headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
    body: "{}",
  });
  assert.equal(cancelled.status, 200);
  assert.deepEqual((await lookup(call, MAIL[0])).jobs, [
    { id: MAIL[0], task: "send-email", state: "cancelled" },
  ]);
});

lookupTest("lists only jobs of tasks the user may search, `more` counting those", async (call) => {
  await listPages(call);
  assert.deepEqual(await lookup(call, "c0ffee00", "bob"), {
    jobs: MAIL.map((id) => ({ id, task: "send-email", state: "waiting" })),
    more: false,
  });
});

lookupTest("a prefix too short, too long or absent is a 400 naming `prefix`", async (call) => {
  for (const query of ["?prefix=c0ffe", `?prefix=${"c".repeat(257)}`, "", "?prefix="]) {
    const response = await call(`/jobs${query}`);
    const body = await response.json();
    assert.equal(response.status, 400, query);
    assert.deepEqual([body.code, body.param], ["INVALID_PARAM", "prefix"], query);
    assert.match(body.error, /start of a job's id, 6 to 256 characters/, query);
  }
});

lookupTest(
  "a job page opened by a shared start of ids names only jobs the user may search",
  async (call) => {
    await listPages(call);
    // The start of every report job and both mail jobs.
    const ada = await (await call("/jobs/c0ffee00-0000-4000-8000-")).json();
    assert.match(ada.error, /\(report\)/, "ada may search report: its jobs are candidates");
    const bob = await call("/jobs/c0ffee00-0000-4000-8000-", "bob");
    const body = await bob.json();
    assert.equal(bob.status, 400, JSON.stringify(body));
    assert.doesNotMatch(body.error, /report/, "no job of a task bob may not search is named");
    assert.match(body.error, /\(send-email\)/);
    // A start only a report job has opens nothing for bob: as if no such job.
    const hidden = await call(`/jobs/${REPORTS[20].slice(0, -1)}`, "bob");
    assert.equal(hidden.status, 404);
    await hidden.body?.cancel();
  },
);
