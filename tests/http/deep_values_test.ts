/**
 * Values nested thousands of levels deep, written in taskora's wire format
 * on a real Redis, never break a page: the job, the DLQ and the failed tab
 * answer 200 with the value redacted all the way down; a request body that
 * deep is refused before anything is written; and a job whose formatter
 * throws is shown with a marker while the rest of its list is intact.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { UNPRESENTABLE } from "../../src/contract/masks.ts";
import type { BoardOptions } from "../../src/options.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";
import { innermost, nested } from "../helpers/nested.ts";

type Call = (method: string, path: string, body?: unknown) => Promise<Response>;
type Client = Awaited<ReturnType<typeof connectClient>>;

async function withRedisBoard(
  options: BoardOptions,
  body: (call: Call, client: Client) => Promise<void>,
): Promise<void> {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  // Replies get 10 s, not the board's 2 s: a loaded CI run answered one page 503 (Redis did not
  // answer in time) while this test is about values thousands of levels deep, not about time.
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 10_000 });
  const board = createBoard(source, options);
  const call: Call = async (method, path, payload) =>
    await board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method,
        headers: payload === undefined ? {} : { "content-type": "application/json" },
        body: payload === undefined ? undefined : JSON.stringify(payload),
      }),
    );
  try {
    await body(call, client);
  } finally {
    await board.close();
    await source.close();
    client.destroy();
    await redis.stop();
  }
}

const LEVELS = 5000;

Deno.test("a job 5,000 levels deep is shown, redacted at the bottom, on every page it is on", async () => {
  await withRedisBoard({ redact: ["password"] }, async (call, client) => {
    const id = await writeJob(client, {
      task: "send-email",
      state: "failed",
      data: nested(LEVELS, { password: "hunter2", to: "ada@x.io" }),
      error: "too deep",
      finishedOn: Date.now(),
    });
    const job = await call("GET", `/jobs/${id}`);
    assert.equal(job.status, 200);
    assert.deepEqual(innermost((await job.json()).data, LEVELS), {
      password: "[REDACTED]",
      to: "ada@x.io",
    });

    const full = await call("GET", `/jobs/${id}/payloads/data`);
    assert.equal(full.status, 200);
    assert.deepEqual(innermost(await full.json(), LEVELS), {
      password: "[REDACTED]",
      to: "ada@x.io",
    });

    const dlq = await call("GET", "/dlq");
    assert.equal(dlq.status, 200);
    const { jobs } = await dlq.json();
    assert.equal(jobs[0].id, id, "the newest failure comes first");
    assert.equal(jobs.length, 6, "the fixture's five failed jobs are still listed");

    const tab = await call("GET", "/tasks/send-email/jobs?state=failed");
    assert.equal(tab.status, 200);
    const rows = await tab.json();
    assert.equal(rows.length, 6);
    assert.equal(rows[0].id, id);
  });
});

Deno.test("a schedule update nested over 64 levels is a 400 naming data, and nothing is written", async () => {
  await withRedisBoard({ redact: ["password"] }, async (call, client) => {
    const before = await client.hGet("taskora:schedules", "nightly-report");
    const response = await call("PUT", "/schedules/nightly-report", {
      data: nested(6000, { password: "x" }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), {
      error: "Invalid data: nests objects and arrays more than 64 levels deep",
      code: "INVALID_PARAM",
      param: "data",
    });
    assert.equal(await client.hGet("taskora:schedules", "nightly-report"), before);

    const shallow = await call("PUT", "/schedules/nightly-report", { data: nested(64, 1) });
    assert.equal(shallow.status, 200, "64 levels are accepted");
    assert.equal((await call("GET", "/schedules")).status, 200);
  });
});

Deno.test("a schedule stored 6,000 levels deep by taskora is listed, redacted", async () => {
  await withRedisBoard({ redact: ["password"] }, async (call, client) => {
    const data = nested(6000, { password: "hunter2" });
    await client.hSet(
      "taskora:schedules",
      "deep",
      JSON.stringify({ task: "report", every: 60_000, onMissed: "skip", overlap: false, data }),
    );
    const response = await call("GET", "/schedules");
    assert.equal(response.status, 200);
    const deep = (await response.json()).find((s: { name: string }) => s.name === "deep");
    assert.deepEqual(innermost(deep.config.data, 6000), { password: "[REDACTED]" });
  });
});

Deno.test("a job whose formatter throws is marked on its page, and its list is shown", async () => {
  const formatters = {
    data: (value: unknown) => {
      if ((value as { boom?: boolean } | null)?.boom) throw new Error("formatter bug");
      return value;
    },
  };
  await withRedisBoard({ redact: ["password"], formatters }, async (call, client) => {
    const id = await writeJob(client, {
      task: "send-email",
      state: "failed",
      data: { boom: true, password: "hunter2" },
      error: "boom",
      finishedOn: Date.now(),
    });
    const rows = await (await call("GET", "/tasks/send-email/jobs?state=failed")).json();
    assert.equal(rows.length, 6, "the list, which carries no data, is unaffected");
    assert.equal(rows[0].id, id);
    const job = await (await call("GET", `/jobs/${id}`)).json();
    assert.equal(job.data, UNPRESENTABLE);
    assert.equal(job.error, "boom");
  });
});
