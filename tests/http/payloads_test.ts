/**
 * Big payloads over HTTP, on a real Redis in taskora's wire format: lists
 * carry none; the job answer carries a payload whole up to 256 KB and, over
 * it, its size and the start of its text; `GET /jobs/{id}/payloads/{field}`
 * serves it whole (redacted) and as a download; a log line's big meta is
 * served the same way; logs filter by level and attempt; the attempt history
 * comes from the task's event stream and says when it may be incomplete.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { PAYLOAD_LIMIT, PREVIEW_CHARS, utf8Length } from "../../src/contract/payload.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

type Get = (path: string) => Promise<Response>;
type Client = Awaited<ReturnType<typeof connectClient>>;

async function withRedisBoard(body: (get: Get, client: Client) => Promise<void>): Promise<void> {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  const board = createBoard(redis.url, { redact: ["password"] });
  try {
    await body(
      async (path) => await board.fetch(new Request(`http://board.test/board/api${path}`)),
      client,
    );
  } finally {
    await board.close();
    client.destroy();
    await redis.stop();
  }
}

const TEN_MB = 10 * 1024 * 1024;
const keys = taskKeys("send-email");

/** A failed job whose data is 10 MB, a secret first. */
async function bigJob(client: Client): Promise<string> {
  return await writeJob(client, {
    task: "send-email",
    state: "failed",
    data: { password: "hunter2", blob: "é".repeat(TEN_MB / 2) },
    error: "too big",
    finishedOn: Date.now(),
  });
}

Deno.test("a 10 MB input: the job answer states its size and carries 16 KB of it", async () => {
  await withRedisBoard(async (get, client) => {
    const id = await bigJob(client);
    const response = await get(`/jobs/${id}`);
    const text = await response.text();
    assert.ok(text.length < 64 * 1024, `the job answer is ${text.length} characters`);
    const job = JSON.parse(text);
    assert.equal(job.data, null);
    const served = JSON.stringify({ password: "[REDACTED]", blob: "é".repeat(TEN_MB / 2) });
    assert.deepEqual(job.payloads.data, {
      bytes: utf8Length(served),
      truncated: true,
      preview: served.slice(0, PREVIEW_CHARS),
    });
    assert.ok(job.payloads.data.bytes > TEN_MB, "é is two bytes: bytes, not characters");
    assert.deepEqual(job.payloads.error, { bytes: 7, truncated: false });
    assert.equal(job.error, "too big");
    assert.equal(job.payloads.result, undefined, "no result, no size");
  });
});

Deno.test("GET /jobs/{id}/payloads/{field} serves it whole, redacted, and as a download", async () => {
  await withRedisBoard(async (get, client) => {
    const id = await bigJob(client);
    const full = await get(`/jobs/${id}/payloads/data`);
    assert.equal(full.status, 200);
    assert.match(full.headers.get("content-type")!, /^application\/json/);
    assert.equal(full.headers.get("content-disposition"), null);
    const value = await full.json();
    assert.equal(value.password, "[REDACTED]");
    assert.equal(value.blob.length, TEN_MB / 2);

    const download = await get(`/jobs/${id}/payloads/data?download`);
    assert.equal(
      download.headers.get("content-disposition"),
      `attachment; filename="${id}-data.json"`,
    );
    assert.equal((await download.json()).password, "[REDACTED]");
    assert.equal(await (await get(`/jobs/${id}/payloads/result`)).json(), null);
    assert.equal(await (await get(`/jobs/${id}/payloads/error`)).json(), "too big");
  });
});

Deno.test("payload routes refuse an unknown field, job or method", async () => {
  await withRedisBoard(async (get, client) => {
    const id = await bigJob(client);
    const bad = await get(`/jobs/${id}/payloads/logs`);
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      error: 'Invalid field: must be one of data, result, error, progress (got "logs")',
      code: "INVALID_PARAM",
      param: "field",
    });
    const missing = await get("/jobs/00000000-0000-0000-0000-000000000000/payloads/data");
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, "JOB_NOT_FOUND");
    assert.equal((await get(`/jobs/${"x".repeat(257)}/payloads/data`)).status, 400);
    assert.equal((await get(`/jobs/${id.slice(0, 8)}/payloads/data`)).status, 404, "whole ids");
  });
});

Deno.test("lists carry no payload: a page holding a 10 MB job stays small", async () => {
  await withRedisBoard(async (get, client) => {
    const id = await bigJob(client);
    const tab = await get("/tasks/send-email/jobs?state=failed");
    const text = await tab.text();
    const rows = JSON.parse(text);
    assert.equal(rows[0].id, id);
    assert.ok(text.length < 16 * 1024, `the list answer is ${text.length} characters`);
    for (const row of rows) assert.ok(!("data" in row) && !("result" in row));
    const dlq = await (await get("/dlq")).text();
    assert.ok(dlq.length < 16 * 1024, `the DLQ answer is ${dlq.length} characters`);
  });
});

Deno.test("a log line's big meta is left out with its size, and served whole by its index", async () => {
  await withRedisBoard(async (get, client) => {
    const id = await bigJob(client);
    const big = { password: "p", rows: "r".repeat(PAYLOAD_LIMIT) };
    await client.rPush(`${keys.jobPrefix}${id}:logs`, [
      JSON.stringify({ level: "info", message: "small", meta: { n: 1 }, timestamp: 1 }),
      JSON.stringify({ level: "warn", message: "big", meta: big, timestamp: 2 }),
    ]);
    const job = await (await get(`/jobs/${id}`)).json();
    const [small, line] = job.logs;
    assert.deepEqual(small, {
      level: "info",
      message: "small",
      meta: { n: 1 },
      timestamp: 1,
      index: 0,
    });
    assert.equal(line.index, 1);
    assert.equal(line.meta, undefined);
    assert.equal(line.metaSize.truncated, true);
    assert.equal(line.metaSize.bytes, JSON.stringify({ ...big, password: "[REDACTED]" }).length);

    const meta = await (await get(`/jobs/${id}/logs/1/meta`)).json();
    assert.deepEqual(meta, { ...big, password: "[REDACTED]" });
    const past = await get(`/jobs/${id}/logs/2/meta`);
    assert.equal(past.status, 400);
    assert.equal((await past.json()).param, "index");
    assert.equal((await get(`/jobs/${id}/logs/-1/meta`)).status, 400);
  });
});

/**
 * A job that failed on attempt 3, after attempts 1 and 2 failed at 2,000 and
 * 3,000 ms after it was created, with the entries taskora 0.5.0 writes: a
 * `retrying` names the attempt that comes next, the final `failed` carries
 * no attempt and no error (the hash keeps it). The first `retrying` carries
 * an error as another writer may.
 */
async function retriedJob(client: Client): Promise<{ id: string; created: number }> {
  const created = Date.now() - 60_000;
  const id = await writeJob(client, {
    task: "send-email",
    state: "failed",
    ts: created,
    attempt: 3,
    maxAttempts: 3,
    error: "third",
    finishedOn: created + 4_000,
  });
  const xadd = (at: number, fields: string[]) =>
    client.sendCommand(["XADD", keys.events, `${at}-0`, ...fields]);
  await client.del(keys.events);
  await xadd(created - 1, ["event", "waiting", "jobId", "someone-else"]);
  await xadd(created + 2_000, [
    "event",
    "retrying",
    "jobId",
    id,
    "attempt",
    "2",
    "error",
    '{"password":"p","why":"first"}',
    "nextAttemptAt",
    String(created + 2_500),
  ]);
  await xadd(created + 3_000, [
    "event",
    "retrying",
    "jobId",
    id,
    "attempt",
    "3",
    "error",
    "second",
  ]);
  await xadd(created + 4_000, ["event", "failed", "jobId", id]);
  const line = (level: string, at: number) =>
    JSON.stringify({ level, message: `${level} at ${at - created}`, timestamp: at });
  await client.rPush(`${keys.jobPrefix}${id}:logs`, [
    line("info", created + 1_000),
    line("error", created + 1_500),
    line("info", created + 2_500),
    line("error", created + 2_900),
    line("error", created + 3_500),
  ]);
  return { id, created };
}

Deno.test("GET /jobs/{id}/attempts reads each failed attempt from the event stream", async () => {
  await withRedisBoard(async (get, client) => {
    const { id, created } = await retriedJob(client);
    const history = await (await get(`/jobs/${id}/attempts`)).json();
    assert.deepEqual(history, {
      attempts: [
        {
          attempt: 1,
          outcome: "retrying",
          error: '{"password":"[REDACTED]","why":"first"}',
          at: created + 2_000,
          nextAttemptAt: created + 2_500,
          logs: null, // no tracing.logsUrl on this board
        },
        {
          attempt: 2,
          outcome: "retrying",
          error: "second",
          at: created + 3_000,
          nextAttemptAt: null,
          logs: null,
        },
        {
          attempt: 3,
          outcome: "failed",
          error: "third",
          at: created + 4_000,
          nextAttemptAt: null,
          logs: null,
        },
      ],
      runs: [], // the stream holds no `active` entry of it
      complete: true,
      scanned: 4,
      attempt: 3,
    });
    const missing = await get("/jobs/00000000-0000-0000-0000-000000000000/attempts");
    assert.equal(missing.status, 404);
  });
});

Deno.test("an attempt history whose stream was trimmed says it may be incomplete", async () => {
  await withRedisBoard(async (get, client) => {
    const { id, created } = await retriedJob(client);
    // Trim away everything before attempt 2's end, as MAXLEN would on a busy task.
    await client.sendCommand(["XTRIM", keys.events, "MINID", `${created + 3_000}`]);
    for (let i = 0; i < 10; i++) {
      await client.sendCommand([
        "EVAL",
        "for i = 1, 1000 do redis.call('XADD', KEYS[1], '*', 'event', 'active', 'jobId', 'x') end",
        "1",
        keys.events,
      ]);
    }
    const history = await (await get(`/jobs/${id}/attempts`)).json();
    assert.equal(history.complete, false);
    assert.equal(history.scanned, 10_000, "no more than the bound");
    assert.deepEqual(history.attempts, [], "the job's entries lie past the bound");
  });
});

Deno.test("GET /jobs/{id}/logs filters by level and by attempt among the newest lines", async () => {
  await withRedisBoard(async (get, client) => {
    const { id } = await retriedJob(client);
    const messages = async (query: string) => {
      const response = await get(`/jobs/${id}/logs?${query}`);
      assert.equal(response.status, 200, query);
      const lines = await response.json();
      return [
        response.headers.get("x-total-count"),
        lines.map((l: { message: string; index: number }) => `${l.index} ${l.message}`),
      ];
    };
    assert.deepEqual(await messages("level=error"), [
      "3",
      ["1 error at 1500", "3 error at 2900", "4 error at 3500"],
    ]);
    assert.deepEqual(await messages("level=ERROR&limit=1&offset=1"), ["3", ["3 error at 2900"]]);
    assert.deepEqual(await messages("attempt=2"), ["2", ["2 info at 2500", "3 error at 2900"]]);
    assert.deepEqual(await messages("attempt=3&level=error"), ["1", ["4 error at 3500"]]);
    assert.deepEqual(await messages("attempt=9"), ["0", []]);
    assert.deepEqual(await messages("level=warn&attempt="), ["0", []], "empty: no filter");
    for (const [query, param] of [["level=in%20fo", "level"], ["attempt=0", "attempt"]]) {
      const bad = await get(`/jobs/${id}/logs?${query}`);
      assert.equal(bad.status, 400, query);
      assert.equal((await bad.json()).param, param);
    }
  });
});
