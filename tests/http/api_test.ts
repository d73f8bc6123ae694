/**
 * The read API, end to end through `board.fetch`, on the in-memory source
 * seeded with the real taskora keyspace.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import type { BoardOptions } from "../../src/options.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import {
  FIXTURE_METRIC_MINUTE,
  fixtureTime,
  readFixture,
  SEND_EMAIL_STATS,
} from "../helpers/fixture.ts";

const dump = readFixture();
const minute = FIXTURE_METRIC_MINUTE;

async function withBoard(
  options: BoardOptions,
  body: (get: (path: string, init?: RequestInit) => Promise<Response>) => Promise<void>,
): Promise<void> {
  const source = createMemorySource({ seed: dump });
  const board = createBoard(source, options);
  try {
    await body((path, init) =>
      Promise.resolve(board.fetch(new Request(`http://board.test${path}`, init)))
    );
  } finally {
    await source.close();
  }
}

function api(test: string, body: (get: (path: string) => Promise<Response>) => Promise<void>) {
  Deno.test(test, () => withBoard({}, body));
}

async function expectError(response: Response, status: number, code: string, mentions?: string) {
  assert.equal(response.status, status);
  assert.match(response.headers.get("content-type") ?? "", /application\/json/);
  const body = await response.json();
  assert.equal(body.code, code);
  assert.equal(typeof body.error, "string");
  if (mentions) assert.match(body.error, new RegExp(mentions));
}

api("GET /overview gives every task's stats and health, the totals and the store", async (get) => {
  const response = await get("/board/api/overview");
  assert.equal(response.status, 200);
  const body = await response.json();
  assert.equal(body.tasks.length, 11);
  const email = body.tasks.find((t: { name: string }) => t.name === "send-email");
  assert.deepEqual(email.stats, SEND_EMAIL_STATS);
  assert.equal(email.health.status, "warning");
  assert.equal(email.health.failureRate, 5 / 15);
  assert.deepEqual(body.totals, {
    waiting: 0,
    active: 2,
    delayed: 6,
    failed: 5,
    completed: 29,
    cancelled: 1,
    expired: 1,
  });
  assert.deepEqual(Object.keys(body.redis).sort(), [
    "connected",
    "uptime",
    "usedMemory",
    "version",
  ]);
  assert.equal(typeof body.uptime, "number");
});

api("GET /tasks/{task}/jobs pages a state with X-Total-Count", async (get) => {
  const response = await get("/board/api/tasks/send-email/jobs?state=completed&limit=4&offset=8");
  assert.equal(response.status, 200);
  assert.equal(response.headers.get("x-total-count"), "10");
  const jobs = await response.json();
  assert.equal(jobs.length, 2);
  assert.ok(jobs.every((job: { state: string }) => job.state === "completed"));
  assert.deepEqual(Object.keys(jobs[0].timestamps), [
    "created",
    "processed",
    "finished",
    "runAt",
    "cancelled",
    "expireAt",
  ]);
});

api("GET /tasks/{task}/jobs lists every state, retrying apart from delayed", async (get) => {
  for (
    const state of [
      "waiting",
      "active",
      "delayed",
      "retrying",
      "failed",
      "completed",
      "cancelled",
      "expired",
    ]
  ) {
    const response = await get(`/board/api/tasks/send-email/jobs?state=${state}`);
    assert.equal(response.status, 200, state);
    assert.ok(Array.isArray(await response.json()));
  }
  const delayed = await (await get("/board/api/tasks/send-email/jobs?state=delayed")).json();
  assert.equal(delayed.length, 1);
  assert.equal(delayed[0].timeline.at(-1).state, "delayed");
});

api("bad list parameters are 400 INVALID_PARAM naming the parameter", async (get) => {
  await expectError(
    await get("/board/api/tasks/send-email/jobs?state=zombie"),
    400,
    "INVALID_PARAM",
    "state",
  );
  await expectError(
    await get("/board/api/tasks/send-email/jobs?limit=-1"),
    400,
    "INVALID_PARAM",
    "limit",
  );
  await expectError(
    await get("/board/api/tasks/send-email/jobs?limit=2.5"),
    400,
    "INVALID_PARAM",
    "limit",
  );
  await expectError(
    await get("/board/api/tasks/send-email/jobs?limit=1001"),
    400,
    "INVALID_PARAM",
    "limit",
  );
  await expectError(
    await get("/board/api/tasks/send-email/jobs?offset=abc"),
    400,
    "INVALID_PARAM",
    "offset",
  );
  await expectError(await get("/board/api/workflows?limit=0"), 400, "INVALID_PARAM", "limit");
  await expectError(await get("/board/api/workflows?state=done"), 400, "INVALID_PARAM", "state");
  await expectError(await get("/board/api/throughput?bucket=1000"), 400, "INVALID_PARAM", "bucket");
  await expectError(
    await get("/board/api/tasks/send-email/migrations?since=x"),
    400,
    "INVALID_PARAM",
    "since",
  );
});

api("unknown things are 404 with their own code", async (get) => {
  await expectError(await get("/board/api/tasks/nope/jobs"), 404, "TASK_NOT_FOUND", "nope");
  await expectError(await get("/board/api/tasks/nope/stats"), 404, "TASK_NOT_FOUND");
  await expectError(await get("/board/api/tasks/nope/migrations"), 404, "TASK_NOT_FOUND");
  await expectError(await get("/board/api/throughput?task=nope"), 404, "TASK_NOT_FOUND");
  await expectError(await get("/board/api/jobs/nope"), 404, "JOB_NOT_FOUND");
  await expectError(await get("/board/api/workflows/nope"), 404, "WORKFLOW_NOT_FOUND");
  await expectError(await get("/board/api/no-such-route"), 404, "NOT_FOUND");
});

api("GET /tasks/{task}/stats adds key count and memory to the counts", async (get) => {
  const body = await (await get("/board/api/tasks/send-email/stats")).json();
  assert.equal(body.task, "send-email");
  assert.equal(body.failed, 5);
  assert.equal(body.completed, 10);
  assert.ok(body.keyCount > 0);
  assert.ok(body.memoryBytes > 0);
});

api("GET /tasks/{task}/migrations answers canBumpSince and canBump", async (get) => {
  const body = await (await get("/board/api/tasks/resize-image/migrations")).json();
  assert.deepEqual(body, {
    version: 3,
    since: null,
    queue: { oldest: null, byVersion: {} },
    delayed: { oldest: 1, byVersion: { "1": 2, "2": 3 } },
    retrying: { oldest: null, byVersion: {} },
    canBumpSince: 1,
  });
  const two = await (await get("/board/api/tasks/resize-image/migrations?since=2")).json();
  assert.equal(two.canBump, false);
  assert.equal(two.blockedJobs, 2);
  const one = await (await get("/board/api/tasks/resize-image/migrations?since=1")).json();
  assert.equal(one.canBump, true);
  assert.equal(one.blockedJobs, 0);
  const idle = await (await get("/board/api/tasks/report/migrations")).json();
  assert.equal(idle.canBumpSince, idle.version);
});

api("GET /jobs/{id} gives the job in full with its timeline", async (get) => {
  const job = await (await get("/board/api/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a")).json();
  assert.equal(job.task, "send-email");
  assert.equal(job.state, "failed");
  assert.equal(job.attempt, 2);
  assert.equal(job.maxAttempts, 2);
  assert.equal(job.version, 1);
  assert.equal(job.error, "SMTP timeout");
  assert.deepEqual(job.progress, { step: "render", done: 2, of: 3 });
  assert.deepEqual(job.timestamps.created, fixtureTime(1795345687902));
  assert.deepEqual(job.timeline, [
    { state: "waiting", at: fixtureTime(1795345687902) },
    { state: "active", at: fixtureTime(1795345687929) },
    { state: "failed", at: fixtureTime(1795345687930) },
  ]);
  assert.equal(job.logs.length, 2);
  assert.equal(job.workflow, null);
  const node = await (await get("/board/api/jobs/485336b8-640e-4fb4-8639-b47005927994")).json();
  assert.deepEqual(node.workflow, { id: "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980", nodeIndex: 1 });
});

Deno.test("redaction masks data, results, errors and log meta at any depth", async () => {
  await withBoard({ redact: ["password", "APIKEY"] }, async (get) => {
    const job = await (await get("/board/api/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a")).json();
    assert.equal(job.data.password, "[REDACTED]");
    assert.equal(job.data.to, "u0@x.io");
    assert.equal(job.logs[0].meta.apiKey, "[REDACTED]");
    assert.equal(job.logs[0].meta.nested.Password, "[REDACTED]");
    assert.equal(job.logs[0].meta.host, "smtp.local");
    const list = await (await get("/board/api/tasks/send-email/jobs?state=failed")).json();
    const dlq = await (await get("/board/api/dlq")).json();
    for (const row of [...list, ...dlq.jobs]) {
      assert.ok(!("data" in row) && !("result" in row), "lists carry no payloads");
    }
    const full = await (await get(
      "/board/api/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a/payloads/data",
    )).json();
    assert.equal(full.password, "[REDACTED]", "the payload route redacts too");
  });
});

Deno.test("formatters run before redaction, with the task name", async () => {
  const seen: string[] = [];
  await withBoard({
    redact: ["secret"],
    formatters: {
      data: (value, task) => {
        seen.push(task);
        return { wrapped: value, secret: "s3cr3t", task };
      },
      result: (value) => ({ shown: value }),
    },
  }, async (get) => {
    const job = await (await get("/board/api/jobs/a1cc1051-e5de-4ae3-babd-cdd4d73d08cc")).json();
    assert.deepEqual(job.data, { wrapped: { id: "42" }, secret: "[REDACTED]", task: "fetch-user" });
    assert.deepEqual(job.result, { shown: { id: "42", name: "Ada" } });
    assert.ok(seen.includes("fetch-user"));
  });
});

api("GET /schedules gives next run, last run and its status", async (get) => {
  const schedules = await (await get("/board/api/schedules")).json();
  assert.deepEqual(schedules.map((s: { name: string }) => s.name), [
    "heartbeat",
    "nightly-report",
    "weekly-cleanup",
  ]);
  assert.equal(schedules[0].lastRunStatus, "completed");
  assert.equal(schedules[2].paused, true);
});

api(
  "GET /workflows pages newest first, of one state with ?state=; /workflows/{id} gives the graph",
  async (get) => {
    const response = await get("/board/api/workflows?limit=2");
    assert.equal(response.headers.get("x-total-count"), "4");
    const list = await response.json();
    assert.equal(list.length, 2);
    assert.equal(list[0].id, "1c78cf3d-5b2d-4961-a5dd-6dd2224e7980");
    const completed = await get("/board/api/workflows?state=completed&limit=1");
    assert.equal(completed.headers.get("x-total-count"), "3");
    assert.deepEqual(
      (await completed.json()).map((w: { id: string; state: string }) => [w.id, w.state]),
      [["534bef22-f368-43d6-b6cd-31868a816f0c", "completed"]],
    );
    const group = await (await get("/board/api/workflows/534bef22-f368-43d6-b6cd-31868a816f0c"))
      .json();
    assert.equal(group.name, "group(chain(fetch-user → render), square)");
    assert.deepEqual(group.graph.terminal, [1, 2]);
    assert.deepEqual(group.graph.nodes[0].data, { id: "7" });
    assert.deepEqual(group.nodes.map((n: { deps: number[] }) => n.deps), [[], [0], []]);
    assert.deepEqual(group.result, ["Hello Ada", 81]);
  },
);

api("GET /dlq gives failed jobs of all tasks and their error groups", async (get) => {
  const response = await get("/board/api/dlq?limit=2");
  assert.equal(response.headers.get("x-total-count"), "5");
  const body = await response.json();
  assert.equal(body.total, 5);
  assert.equal(body.jobs.length, 2);
  assert.deepEqual(body.groups.map((g: { sample: string; count: number }) => [g.sample, g.count]), [
    ["SMTP timeout", 3],
    ["Mailbox full", 2],
  ]);
  const group = await get("/board/api/dlq?pattern=Mailbox%20full");
  assert.equal(group.headers.get("x-total-count"), "2");
  const groupBody = await group.json();
  assert.deepEqual(groupBody.jobs.map((job: { error: string }) => job.error), [
    "Mailbox full",
    "Mailbox full",
  ]);
  const empty = await get("/board/api/dlq?pattern=");
  assert.equal(empty.status, 400);
  assert.equal((await empty.json()).code, "INVALID_PARAM");
});

api("GET /throughput gives 1,440 one-minute buckets, all tasks or one", async (get) => {
  const all = await (await get("/board/api/throughput")).json();
  assert.equal(all.length, 1440);
  assert.deepEqual(all.find((b: { timestamp: number }) => b.timestamp === minute), {
    timestamp: minute,
    completed: 29,
    failed: 5,
  });
  const hourly = await (await get("/board/api/throughput?task=send-email&bucket=3600000")).json();
  assert.equal(hourly.length, 24);
  assert.equal(hourly.reduce((sum: number, b: { failed: number }) => sum + b.failed, 0), 5);
});

Deno.test("GET /config tells the UI how the board is set up", async () => {
  await withBoard(
    { title: "Prod", theme: "dark", readOnly: true, refreshInterval: 2000 },
    async (get) => {
      const { allowed, ...config } = await (await get("/board/api/config")).json();
      assert.deepEqual(config, {
        title: "Prod",
        logo: null,
        favicon: null,
        theme: "dark",
        readOnly: true,
        editableData: true,
        refreshInterval: 2000,
        authEnabled: false,
        basePath: "/board",
        history: false,
        exportCap: 100_000,
        user: null,
        roleNeeded: {},
      });
      // Read-only: no mutation (tests/http/permissions_test.ts lists them).
      assert.ok(allowed.includes("payload.read") && !allowed.includes("job.retry"));
    },
  );
});
