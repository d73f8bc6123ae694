/**
 * The mutation endpoints over HTTP: what each answers, and every refusal
 * (wrong state, unknown id, bad body).
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { MAX_EDITED_DATA_BYTES } from "../../src/contract/jobs.ts";
import { expectError } from "../helpers/expect_error.ts";
import { readFixture } from "../helpers/fixture.ts";
import { nested } from "../helpers/nested.ts";

const dump = readFixture();
const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
const COMPLETED = "a1cc1051-e5de-4ae3-babd-cdd4d73d08cc";
const ACTIVE = "d8e1df37-39dd-4863-9508-f7c9bd517880";
/** What a retry of {@link FAILED} answers, edited or not. */
const FAILED_RETRIED = { ok: true, id: FAILED, task: "send-email", from: "failed", to: "waiting" };

type Call = (
  method: string,
  path: string,
  body?: unknown,
  type?: string,
  headers?: Record<string, string>,
) => Promise<Response>;

function action(name: string, body: (call: Call) => Promise<void>) {
  Deno.test(name, async () => {
    const source = createMemorySource({ seed: dump });
    const board = createBoard(source);
    const call: Call = (method, path, payload, type = "application/json", headers = {}) =>
      Promise.resolve(board.fetch(
        new Request(`http://board.test/board/api${path}`, {
          method,
          // As the UI sends every mutation: from the board's page, typed JSON even when empty.
          headers: { origin: "http://board.test", "content-type": type, ...headers },
          body: payload === undefined
            ? undefined
            : typeof payload === "string"
            ? payload
            : JSON.stringify(payload),
        }),
      ));
    try {
      await body(call);
    } finally {
      await source.close();
    }
  });
}

action("POST /jobs/{id}/retry sends a failed job back to waiting", async (call) => {
  const response = await call("POST", `/jobs/${FAILED}/retry`);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), FAILED_RETRIED);
  const job = await (await call("GET", `/jobs/${FAILED}`)).json();
  assert.equal(job.state, "waiting");
  assert.equal(job.attempt, 1);
  assert.equal(job.error, null);
});

action("retrying a job in the wrong state is 409 INVALID_STATE naming the state", async (call) => {
  await expectError(
    await call("POST", `/jobs/${COMPLETED}/retry`),
    409,
    "INVALID_STATE",
    /completed/,
  );
  await expectError(await call("POST", `/jobs/${ACTIVE}/retry`), 409, "INVALID_STATE", /active/);
  await expectError(await call("POST", "/jobs/nope/retry"), 404, "JOB_NOT_FOUND", /nope/);
});

action("POST /jobs/{id}/rerun dispatches a new job with the job's data", async (call) => {
  const response = await call("POST", `/jobs/${COMPLETED}/rerun`);
  const body = await response.json();
  assert.equal(response.status, 200, JSON.stringify(body));
  assert.equal(body.ok, true);
  assert.equal(body.versionFrom, "recent-jobs");
  assert.equal(typeof body.version, "number");
  const [fresh, original] = await Promise.all(
    [body.jobId, COMPLETED].map(async (id) => await (await call("GET", `/jobs/${id}`)).json()),
  );
  assert.equal(fresh.task, body.task);
  assert.equal(fresh.state, "waiting");
  assert.deepEqual(fresh.data, original.data);
  await expectError(
    await call("POST", `/jobs/${COMPLETED}/rerun`, { data: 1 }),
    400,
    "INVALID_PARAM",
    /unknown field data/,
  );
  await expectError(await call("POST", "/jobs/nope-nope/rerun"), 404, "JOB_NOT_FOUND", /nope-nope/);
});

action(
  "POST /jobs/{id}/retry-edited retries with new data; bad data is a 400 naming data",
  async (call) => {
    const response = await call("POST", `/jobs/${FAILED}/retry-edited`, {
      data: { fixed: [1, 2] },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), FAILED_RETRIED);
    assert.deepEqual((await (await call("GET", `/jobs/${FAILED}`)).json()).data, { fixed: [1, 2] });

    const url = `/jobs/${COMPLETED}/retry-edited`;
    await expectError(await call("POST", url, {}), 400, "INVALID_PARAM", /data.*required/);
    await expectError(await call("POST", url), 400, "INVALID_PARAM", /body/);
    await expectError(await call("POST", url, '{"data": '), 400, "INVALID_PARAM", /not valid JSON/);
    await expectError(
      await call("POST", url, { data: 1, extra: 2 }),
      400,
      "INVALID_PARAM",
      /extra/,
    );
    await expectError(
      await call("POST", url, { data: nested(65, 1) }),
      400,
      "INVALID_PARAM",
      /data: nests .* more than 64 levels/,
    );
    const big = "x".repeat(MAX_EDITED_DATA_BYTES);
    await expectError(
      await call("POST", url, { data: big }),
      400,
      "INVALID_PARAM",
      new RegExp(`Invalid data: must be at most ${MAX_EDITED_DATA_BYTES} bytes`),
    );
    await expectError(await call("POST", url, { data: 1 }), 409, "INVALID_STATE", /completed/);
  },
);

Deno.test("a board that masks or reshapes data refuses the edited retry and says so in /config", async () => {
  for (const options of [{ redact: ["password"] }, { formatters: { data: (v: unknown) => v } }]) {
    const source = createMemorySource({ seed: dump });
    const board = createBoard(source, options);
    try {
      const ask = (method: string, path: string, body?: unknown) =>
        board.fetch(
          new Request(`http://board.test/board/api${path}`, {
            method,
            headers: { origin: "http://board.test", "content-type": "application/json" },
            body: body === undefined ? undefined : JSON.stringify(body),
          }),
        );
      assert.equal((await (await ask("GET", "/config")).json()).editableData, false);
      await expectError(
        await ask("POST", `/jobs/${FAILED}/retry-edited`, { data: { password: "[REDACTED]" } }),
        409,
        "INVALID_STATE",
        /masks \(redact\) or reshapes/,
      );
      assert.equal((await source.getJob(FAILED))?.state, "failed", "nothing was retried");
      assert.equal(
        ((await source.getJob(FAILED))?.data as { password: string }).password,
        "hunter2",
      );
    } finally {
      await source.close();
    }
  }
});

action("POST /jobs/{id}/cancel cancels or signals, and refuses finished jobs", async (call) => {
  const active = await (await call("POST", `/jobs/${ACTIVE}/cancel`, { reason: "operator" }))
    .json();
  assert.deepEqual(active, {
    ok: true,
    id: ACTIVE,
    task: "transcode",
    from: "active",
    to: "cancelling",
  });
  await expectError(
    await call("POST", `/jobs/${COMPLETED}/cancel`),
    409,
    "INVALID_STATE",
    /completed/,
  );
});

action("bodies must be JSON objects with known fields of the right types", async (call) => {
  const path = `/jobs/${ACTIVE}/cancel`;
  await expectError(await call("POST", path, "{not json"), 400, "INVALID_PARAM", /not valid JSON/);
  await expectError(await call("POST", path, "[1]"), 400, "INVALID_PARAM", /JSON object/);
  await expectError(
    await call("POST", path, { reason: 42 }),
    400,
    "INVALID_PARAM",
    /reason.*string/,
  );
  await expectError(
    await call("POST", path, { reason: "x", force: true, extra: 1 }),
    400,
    "INVALID_PARAM",
    /unknown fields force, extra/,
  );
  await expectError(
    await call("POST", path, "reason=x", "application/x-www-form-urlencoded"),
    400,
    "INVALID_PARAM",
    /application\/json/,
  );
  await expectError(
    await call("POST", `/jobs/${FAILED}/retry`, { now: 1 }),
    400,
    "INVALID_PARAM",
    /now/,
  );
});

action(
  "POST /tasks/{task}/retry-all and /dlq/retry-all answer how many went back",
  async (call) => {
    const group = await (await call("POST", "/dlq/retry-all", { pattern: "Mailbox full" })).json();
    assert.deepEqual(group, { ok: true, retried: 2 });
    await expectError(
      await call("POST", "/dlq/retry-all", { pattern: 3 }),
      400,
      "INVALID_PARAM",
      /pattern/,
    );
    const task = await (await call("POST", "/tasks/send-email/retry-all")).json();
    assert.deepEqual(task, { ok: true, task: "send-email", retried: 3 });
    const again = await (await call("POST", "/dlq/retry-all")).json();
    assert.deepEqual(again, { ok: true, retried: 0 });
    await expectError(await call("POST", "/tasks/nope/retry-all"), 404, "TASK_NOT_FOUND", /nope/);
    await expectError(
      await call("POST", "/dlq/retry-all?task=nope"),
      404,
      "TASK_NOT_FOUND",
      /nope/,
    );
  },
);

action("POST /dlq/{id}/retry only takes failed jobs", async (call) => {
  const cancelled = "cfa125ab-710e-4e8f-8ca0-2f1fe8870b15";
  await expectError(
    await call("POST", `/dlq/${cancelled}/retry`),
    409,
    "INVALID_STATE",
    /cancelled/,
  );
  const ok = await (await call("POST", `/dlq/${FAILED}/retry`)).json();
  assert.equal(ok.to, "waiting");
});

action("POST /tasks/{task}/clean removes finished jobs older than a duration", async (call) => {
  const kept =
    await (await call("POST", "/tasks/send-email/clean", { state: "completed", olderThan: "1d" }))
      .json();
  assert.equal(kept.removed, 0);
  const preview = await (await call("POST", "/tasks/send-email/clean", {
    state: "completed",
    olderThan: 0,
    dryRun: true,
  })).json();
  assert.deepEqual(preview, {
    ok: true,
    task: "send-email",
    state: "completed",
    olderThan: 0,
    dryRun: true,
    count: 10,
  });
  const all =
    await (await call("POST", "/tasks/send-email/clean", { state: "completed", olderThan: 0 }))
      .json();
  assert.deepEqual(all, {
    ok: true,
    task: "send-email",
    state: "completed",
    olderThan: 0,
    removed: 10,
  });
  await expectError(await call("POST", "/tasks/send-email/clean"), 400, "INVALID_PARAM", /body/);
  await expectError(
    await call("POST", "/tasks/send-email/clean", { state: "failed", olderThan: 0, dryRun: 1 }),
    400,
    "INVALID_PARAM",
    /dryRun/,
  );
  await expectError(
    await call("POST", "/tasks/send-email/clean", { state: "waiting", olderThan: 0 }),
    400,
    "INVALID_PARAM",
    /state/,
  );
  await expectError(
    await call("POST", "/tasks/send-email/clean", { state: "failed", olderThan: "soon" }),
    400,
    "INVALID_PARAM",
    /olderThan/,
  );
  await expectError(
    await call("POST", "/tasks/nope/clean", { state: "failed", olderThan: 0 }),
    404,
    "TASK_NOT_FOUND",
    /nope/,
  );
});

action("schedule actions: pause, resume, trigger, update, delete", async (call) => {
  const paused = await (await call("POST", "/schedules/heartbeat/pause")).json();
  assert.equal(paused.schedule.paused, true);
  assert.equal(paused.schedule.nextRun, null);
  const before = Date.now();
  const resumed = await (await call("POST", "/schedules/heartbeat/resume")).json();
  assert.equal(resumed.schedule.paused, false);
  assert.ok(resumed.schedule.nextRun >= before + 1000);
  const triggered = await (await call("POST", "/schedules/nightly-report/trigger")).json();
  assert.equal(triggered.ok, true);
  const job = await (await call("GET", `/jobs/${triggered.jobId}`)).json();
  assert.equal(job.task, "report");
  assert.deepEqual(job.data, { scope: "all" });
  const updated = await (await call("PUT", "/schedules/nightly-report", { every: "5m" })).json();
  assert.equal(updated.schedule.config.every, 300_000);
  assert.equal(updated.schedule.config.cron, undefined);
  const deleted = await (await call("DELETE", "/schedules/weekly-cleanup")).json();
  assert.deepEqual(deleted, { ok: true, name: "weekly-cleanup" });
  const names = (await (await call("GET", "/schedules")).json()).map((s: { name: string }) =>
    s.name
  );
  assert.deepEqual(names, ["heartbeat", "nightly-report"]);
});

action(
  "POST /schedules/{name}/trigger is idempotent on its Idempotency-Key header",
  async (call) => {
    const click = { "idempotency-key": "9d0c6a3e-click" };
    const first =
      await (await call("POST", "/schedules/nightly-report/trigger", {}, undefined, click))
        .json();
    assert.equal(first.created, true);
    const again = await call("POST", "/schedules/nightly-report/trigger", {}, undefined, click);
    assert.deepEqual(await again.json(), { ok: true, jobId: first.jobId, created: false });
    assert.equal(
      (await call("GET", "/tasks/report/jobs?state=waiting")).headers.get("x-total-count"),
      "1",
    );
    for (const bad of ["two words", "x".repeat(201), "é"]) {
      await expectError(
        await call("POST", "/schedules/nightly-report/trigger", {}, undefined, {
          "idempotency-key": bad,
        }),
        400,
        "INVALID_PARAM",
        /^Invalid Idempotency-Key: must be 1 to 200 printable ASCII/,
      );
    }
  },
);

action(
  "schedule refusals: unknown name, bad cron, both cron and every, bad types",
  async (call) => {
    await expectError(
      await call("POST", "/schedules/nope/pause"),
      404,
      "SCHEDULE_NOT_FOUND",
      /nope/,
    );
    await expectError(await call("DELETE", "/schedules/nope"), 404, "SCHEDULE_NOT_FOUND", /nope/);
    const put = (body: unknown) => call("PUT", "/schedules/heartbeat", body);
    await expectError(await put({ cron: "every day" }), 400, "INVALID_PARAM", /cron/);
    await expectError(
      await put({ cron: "0 3 * * *", every: 1000 }),
      400,
      "INVALID_PARAM",
      /exclusive/,
    );
    await expectError(await put({ every: "often" }), 400, "INVALID_PARAM", /every/);
    await expectError(
      await put({ cron: "0 3 * * *", timezone: "Mars/Base" }),
      400,
      "INVALID_PARAM",
      /timezone/,
    );
    await expectError(await put({ overlap: "yes" }), 400, "INVALID_PARAM", /overlap/);
    await expectError(await put({ onMissed: "later" }), 400, "INVALID_PARAM", /onMissed/);
    await expectError(await put({}), 400, "INVALID_PARAM", /nothing to change/);
    await expectError(await put({ cron: "0 3 * * *", colour: 1 }), 400, "INVALID_PARAM", /colour/);
  },
);

action("POST /workflows/{id}/cancel refuses finished and unknown workflows", async (call) => {
  const chord = "69fbb603-1f1d-4dd0-82d4-a6f176fcec3a";
  await expectError(
    await call("POST", `/workflows/${chord}/cancel`),
    409,
    "INVALID_STATE",
    /completed/,
  );
  await expectError(
    await call("POST", "/workflows/nope/cancel"),
    404,
    "WORKFLOW_NOT_FOUND",
    /nope/,
  );
});
