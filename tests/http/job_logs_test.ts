/**
 * A job's log over HTTP: `GET /jobs/{id}` carries only the newest 100 lines
 * and the count, and `GET /jobs/{id}/logs` pages through all of them with
 * `X-Total-Count`, their meta redacted. On Redis, a log of 100,000 lines
 * does not make either answer big.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { taskKeys } from "../../src/source/wire/keys.ts";
import { CHATTY_JOB, withLoggedJob } from "../contract/source_contract.ts";
import { readFixture } from "../helpers/fixture.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";

type Get = (path: string) => Promise<Response>;

async function withLogs(body: (get: Get) => Promise<void>): Promise<void> {
  const source = createMemorySource({ seed: withLoggedJob(readFixture()) });
  const board = createBoard(source, { redact: ["password"] });
  try {
    await body(async (path) =>
      await board.fetch(new Request(`http://board.test/board/api${path}`))
    );
  } finally {
    await source.close();
  }
}

const messages = (logs: { message: string }[]) => logs.map((log) => log.message);

Deno.test("GET /jobs/{id} carries the newest 100 log lines and how many there are", async () => {
  await withLogs(async (get) => {
    const job = await (await get(`/jobs/${CHATTY_JOB}`)).json();
    assert.equal(job.logCount, 250);
    assert.equal(job.logs.length, 100);
    assert.deepEqual([job.logs[0].message, job.logs[99].message], ["line 150", "line 249"]);
    assert.deepEqual(job.logs[99].meta, { i: 249, password: "[REDACTED]" });
  });
});

Deno.test("GET /jobs/{id}/logs pages the whole log, oldest first, with X-Total-Count", async () => {
  await withLogs(async (get) => {
    const first = await get(`/jobs/${CHATTY_JOB}/logs?limit=3`);
    assert.equal(first.status, 200);
    assert.equal(first.headers.get("x-total-count"), "250");
    const logs = await first.json();
    assert.deepEqual(messages(logs), ["line 0", "line 1", "line 2"]);
    assert.deepEqual(logs[0].meta, { i: 0, password: "[REDACTED]" });

    const middle = await (await get(`/jobs/${CHATTY_JOB}/logs?offset=120&limit=2`)).json();
    assert.deepEqual(messages(middle), ["line 120", "line 121"]);
    const byDefault = await (await get(`/jobs/${CHATTY_JOB}/logs`)).json();
    assert.equal(byDefault.length, 100, "100 lines a page unless asked");
    const past = await get(`/jobs/${CHATTY_JOB}/logs?offset=400`);
    assert.equal(past.headers.get("x-total-count"), "250");
    assert.deepEqual(await past.json(), []);
  });
});

Deno.test("GET /jobs/{id}/logs refuses bad paging and unknown jobs", async () => {
  await withLogs(async (get) => {
    for (
      const [query, mentions] of [
        ["limit=0", /^Invalid limit/],
        ["limit=1001", /^Invalid limit: must be at most 1000/],
        ["offset=-1", /^Invalid offset/],
        ["offset=abc", /^Invalid offset/],
      ] as const
    ) {
      const response = await get(`/jobs/${CHATTY_JOB}/logs?${query}`);
      assert.equal(response.status, 400, query);
      const body = await response.json();
      assert.equal(body.code, "INVALID_PARAM");
      assert.match(body.error, mentions);
    }
    const missing = await get("/jobs/00000000-0000-0000-0000-000000000000/logs");
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).code, "JOB_NOT_FOUND");
    assert.equal((await get(`/jobs/${"x".repeat(257)}/logs`)).status, 400);
  });
});

Deno.test("on Redis, a job that logged 100,000 lines answers in pages of its size", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  const board = createBoard(redis.url);
  try {
    const id = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";
    const logs = `${taskKeys("send-email").jobPrefix}${id}:logs`;
    for (let start = 0; start < 100_000; start += 10_000) {
      const batch = Array.from(
        { length: 10_000 },
        (_, i) =>
          JSON.stringify({
            level: "info",
            message: `line ${start + i} ${"x".repeat(100)}`,
            timestamp: 1,
          }),
      );
      await client.rPush(logs, batch);
    }
    const get = async (path: string) =>
      await board.fetch(new Request(`http://board.test/board/api${path}`));

    const detail = await get(`/jobs/${id}`);
    const text = await detail.text();
    const job = JSON.parse(text);
    assert.equal(job.logCount, 100_002, "the fixture's two lines, then ours");
    assert.equal(job.logs.length, 100);
    assert.match(job.logs[99].message, /^line 99999 /);
    assert.ok(text.length < 30_000, `the job answer is ${text.length} characters`);

    const page = await get(`/jobs/${id}/logs?offset=99990&limit=5`);
    assert.equal(page.headers.get("x-total-count"), "100002");
    assert.deepEqual(
      (await page.json()).map((log: { message: string }) => log.message.split(" ")[1]),
      ["99988", "99989", "99990", "99991", "99992"],
    );
  } finally {
    await board.close();
    client.destroy();
    await redis.stop();
  }
});
