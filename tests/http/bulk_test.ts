/**
 * Bulk actions over HTTP (memory source): the dry-run count, an operation
 * from start to its report and its audit entries, and every refusal of a
 * bad request, a read-only board and a cross-site post.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import type { BulkOperation } from "../../src/contract/bulk.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { expectError } from "../helpers/expect_error.ts";
import { readFixture } from "../helpers/fixture.ts";
import { isEvent, openStream } from "../events/sse_client.ts";

const dump = readFixture();
const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const COMPLETED = "d2d954a9-6cc5-4bb4-b341-01e347a69342";

type Call = (method: string, path: string, body?: unknown, origin?: string) => Promise<Response>;
type Board = ReturnType<typeof createBoard>;

function caller(board: Board): Call {
  return (method, path, payload, origin = "http://board.test") =>
    Promise.resolve(board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: { origin, "content-type": "application/json" },
        body: payload === undefined
          ? undefined
          : typeof payload === "string"
          ? payload
          : JSON.stringify(payload),
      }),
    ));
}

function bulkTest(name: string, body: (call: Call) => Promise<void>, readOnly = false) {
  Deno.test(name, async () => {
    const source = createMemorySource({ seed: dump });
    const board = createBoard(source, { readOnly, redact: ["password"] });
    try {
      await body(caller(board));
    } finally {
      await board.close();
      await source.close();
    }
  });
}

/** Reads the operation until it has ended. */
async function ended(call: Call, id: string): Promise<BulkOperation> {
  for (;;) {
    const operation: BulkOperation = await (await call("GET", `/operations/${id}`)).json();
    if (operation.status !== "running") return operation;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

bulkTest("a dry run counts, changes nothing and records nothing", async (call) => {
  const response = await call("POST", "/bulk", {
    action: "retry",
    selector: { task: "send-email", state: "failed" },
    dryRun: true,
  });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), {
    ok: true,
    dryRun: true,
    task: "send-email",
    action: "retry",
    count: 5,
  });
  const stats = await (await call("GET", "/tasks/send-email/stats")).json();
  assert.equal(stats.failed, 5);
  const audit = await (await call("GET", "/audit")).json();
  assert.deepEqual(audit.entries, []);
});

bulkTest("a filter counts and acts on only the jobs of the state that match it", async (call) => {
  const selector = {
    task: "send-email",
    state: "failed",
    filter: { field: "error", contains: "smtp" },
  };
  const preview = await call("POST", "/bulk", { action: "retry", selector, dryRun: true });
  assert.equal((await preview.json()).count, 3, "three of the five failed with SMTP timeout");

  const started = await call("POST", "/bulk", { action: "retry", selector });
  assert.equal(started.status, 202);
  const { operation } = await started.json();
  assert.deepEqual(operation.selection, { state: "failed", filter: selector.filter });
  assert.equal(operation.total, 5, "a filter's total is the range it scans");
  const report = await ended(call, operation.id);
  assert.equal(report.status, "done");
  assert.equal(report.done, 3);
  assert.equal(report.skipped, 0);
  assert.equal(report.scanned, 5);

  const left = await (await call("GET", "/tasks/send-email/jobs?state=failed")).json();
  assert.deepEqual(left.map((job: { error: string }) => job.error), [
    "Mailbox full",
    "Mailbox full",
  ]);
  const audit = await (await call("GET", "/audit")).json();
  const entry = audit.entries.find((e: { action: string }) => e.action === "bulk.retry");
  assert.equal(entry.count, 3);
  assert.match(entry.detail, /failed jobs matching field=error&contains=smtp \(5 of 5 scanned\)/);
});

bulkTest(
  "a filter that is a time range alone on a finished state counts from the index",
  async (call) => {
    const jobs = await (await call("GET", "/tasks/send-email/jobs?state=completed")).json();
    const times: number[] = jobs
      .map((job: { timestamps: { finished: number } }) => job.timestamps.finished)
      .sort((a: number, b: number) => a - b);
    const [from, to] = [times[1], times[times.length - 2]];
    const inRange = times.filter((t) => t >= from && t <= to).length;
    assert.ok(inRange > 0 && inRange < jobs.length);
    const filter = { from: String(from), to: new Date(to).toISOString() };
    const preview = await call("POST", "/bulk", {
      action: "delete",
      selector: { task: "send-email", state: "completed", filter },
      dryRun: true,
    });
    assert.equal((await preview.json()).count, inRange);
    const empty = await call("POST", "/bulk", {
      action: "delete",
      selector: { task: "send-email", state: "completed", filter: { to: "" } },
      dryRun: true,
    });
    assert.equal((await empty.json()).count, jobs.length, "an empty filter is the whole state");
  },
);

bulkTest("an operation runs to its report: done, skipped, and two audit entries", async (call) => {
  const started = await call("POST", "/bulk", {
    action: "retry",
    selector: { task: "send-email", ids: [FAILED, COMPLETED, FAILED] },
  });
  assert.equal(started.status, 202);
  const { operation } = await started.json();
  assert.equal(operation.total, 1, "the count at start: duplicates once, a completed job not");
  const report = await ended(call, operation.id);
  assert.equal(report.status, "done");
  assert.equal(report.done, 1);
  assert.deepEqual(report.skippedJobs, [{ id: COMPLETED, state: "completed" }]);
  assert.equal(report.skipped, 1);
  assert.equal((await (await call("GET", `/jobs/${FAILED}`)).json()).state, "waiting");
  const listed: BulkOperation[] = await (await call("GET", "/operations")).json();
  assert.deepEqual(listed.map((o) => o.id), [operation.id]);

  const audit = await (await call("GET", "/audit")).json();
  const actions = audit.entries.map((e: { action: string; count: number; detail: string }) => [
    e.action,
    e.count,
    e.detail,
  ]);
  assert.deepEqual(actions, [
    ["bulk.retry", 1, "1 of 1 done, 1 skipped"],
    ["bulk.start", 1, null],
  ]);
  // Finished: it cannot be cancelled any more.
  await expectError(
    await call("POST", `/operations/${operation.id}/cancel`, {}),
    409,
    "INVALID_STATE",
    /is done; only a running operation/,
  );
});

bulkTest("a whole-state delete removes every job of the state", async (call) => {
  const started = await call("POST", "/bulk", {
    action: "delete",
    selector: { task: "send-email", state: "completed" },
  });
  const { operation } = await started.json();
  const report = await ended(call, operation.id);
  assert.equal(report.done, 10);
  const stats = await (await call("GET", "/tasks/send-email/stats")).json();
  assert.equal(stats.completed, 0);
});

bulkTest("bad bulk requests are 400 INVALID_PARAM naming the field", async (call) => {
  const refusals: [unknown, RegExp][] = [
    ["", /Invalid body: expected a JSON object/],
    ["[1]", /Invalid body: must be a JSON object/],
    [{ selector: { task: "send-email", state: "failed" } }, /Invalid action: must be one of/],
    [{ action: "explode", selector: {} }, /Invalid action: must be one of retry, cancel/],
    [{ action: "retry" }, /Invalid selector: is required/],
    [{ action: "retry", selector: "all" }, /Invalid selector: must be/],
    [{ action: "retry", selector: { state: "failed" } }, /Invalid selector.task/],
    [{ action: "retry", selector: { task: "send-email" } }, /needs either ids .* or state/],
    [
      { action: "retry", selector: { task: "send-email", ids: [FAILED], state: "failed" } },
      /needs either ids/,
    ],
    [{ action: "retry", selector: { task: "send-email", ids: [] } }, /array of 1 to 1000/],
    [
      { action: "retry", selector: { task: "send-email", ids: Array(1001).fill("x") } },
      /array of 1 to 1000/,
    ],
    [{ action: "retry", selector: { task: "send-email", ids: [7] } }, /each must be a string/],
    [{ action: "retry", selector: { task: "send-email", ids: [""] } }, /each must be a string/],
    [{ action: "retry", selector: { task: "send-email", state: "done" } }, /must be a job state/],
    [
      { action: "promote", selector: { task: "send-email", state: "failed" } },
      /promote acts on delayed or retrying jobs, not on failed/,
    ],
    [
      { action: "retry", selector: { task: "send-email", state: "failed", filter: { q: "1" } } },
      /selector.filter: unknown field q/,
    ],
    [
      { action: "retry", selector: { task: "send-email", state: "failed", filter: "error" } },
      /selector.filter: must be an object of the search's parameters/,
    ],
    [
      { action: "retry", selector: { task: "send-email", state: "failed", filter: { to: 5 } } },
      /selector.filter.to: must be a string/,
    ],
    [
      {
        action: "retry",
        selector: { task: "send-email", state: "failed", filter: { field: "body", contains: "x" } },
      },
      /selector.filter.field: must be one of data, result, error, logs/,
    ],
    [
      {
        action: "retry",
        selector: { task: "send-email", state: "failed", filter: { from: "2026-11-23T10:00" } },
      },
      /selector.filter.from: must be epoch milliseconds or an ISO 8601/,
    ],
    [
      {
        action: "retry",
        selector: {
          task: "send-email",
          state: "failed",
          filter: { field: "data", path: "password", value: "hunter2" },
        },
      },
      /selector.filter.path: "password" is a redacted key/,
    ],
    [{ action: "retry", selector: { task: "x", state: "failed", sql: 1 } }, /unknown field sql/],
    [
      { action: "retry", selector: { task: "send-email", state: "failed" }, reason: "x" },
      /reason: goes with the cancel action only/,
    ],
    [
      { action: "retry", selector: { task: "send-email", state: "failed" }, dryRun: "yes" },
      /dryRun: must be true or false/,
    ],
    [{ action: "retry", selector: { task: "a", state: "failed" }, all: true }, /unknown field all/],
  ];
  for (const [body, mentions] of refusals) {
    await expectError(await call("POST", "/bulk", body), 400, "INVALID_PARAM", mentions);
  }
  await expectError(
    await call("POST", "/bulk", { action: "retry", selector: { task: "ghost", state: "failed" } }),
    404,
    "TASK_NOT_FOUND",
    /ghost/,
  );
  await expectError(await call("GET", "/operations/nope"), 404, "NOT_FOUND", /Operation "nope"/);
  await expectError(
    await call("POST", "/operations/nope/cancel", {}),
    404,
    "NOT_FOUND",
    /Operation "nope"/,
  );
});

bulkTest("a read-only board refuses a bulk action, dry run included", async (call) => {
  const body = { action: "retry", selector: { task: "send-email", state: "failed" } };
  await expectError(await call("POST", "/bulk", body), 403, "READ_ONLY", /read-only/);
  await expectError(
    await call("POST", "/bulk", { ...body, dryRun: true }),
    403,
    "READ_ONLY",
    /read-only/,
  );
  assert.deepEqual(await (await call("GET", "/operations")).json(), []);
}, true);

bulkTest("a bulk action from another site is refused before it runs", async (call) => {
  const body = { action: "delete", selector: { task: "send-email", state: "completed" } };
  const response = await call("POST", "/bulk", body, "https://evil.example");
  assert.equal(response.status, 403);
  assert.equal((await response.json()).code, "CROSS_ORIGIN");
  const stats = await (await call("GET", "/tasks/send-email/stats")).json();
  assert.equal(stats.completed, 10);
});

Deno.test("progress goes out on the event stream as bulk:progress, ending with the report", async () => {
  const source = createMemorySource({ seed: dump });
  const board = createBoard(source);
  const stream = await openStream(board.fetch, "http://board.test/board/api/events");
  try {
    await stream.waitFor(isEvent("stats:update"));
    const started = await caller(board)("POST", "/bulk", {
      action: "delete",
      selector: { task: "send-email", state: "completed" },
    });
    const { operation } = await started.json();
    const last = await stream.waitFor(
      isEvent("bulk:progress", (d) => d.id === operation.id && d.status !== "running"),
    );
    const report = JSON.parse(last.data!);
    assert.equal(report.status, "done");
    assert.equal(report.done, 10);
    assert.equal(report.total, 10);
  } finally {
    await stream.close();
    await board.close();
    await source.close();
  }
});
