/**
 * The board over a real Redis holding the taskora fixture: the API reads it,
 * Redis going away is a quick 503, and the board recovers by itself.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { createRedisSource } from "../../src/source/redis/mod.ts";
import { commandsOf } from "../helpers/command_stats.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

async function get(board: { fetch: (r: Request) => Response | Promise<Response> }, path: string) {
  return await board.fetch(new Request(`http://board.test/board/api${path}`));
}

Deno.test("the API reads the real keyspace from a Redis URL", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url, { metricsAt: Date.now() });
  const board = createBoard(redis.url, { redact: ["password"] });
  try {
    const overview = await (await get(board, "/overview")).json();
    assert.equal(overview.tasks.length, 11);
    assert.equal(overview.totals.completed, 29);
    assert.equal(overview.redis.connected, true);
    assert.match(overview.redis.version, /^\d+\.\d+/);
    const job = await (await get(board, "/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a")).json();
    assert.equal(job.data.password, "[REDACTED]");
    assert.equal(job.logs.length, 2);
    const page = await get(board, "/tasks/send-email/jobs?state=failed&limit=2");
    assert.equal(page.headers.get("x-total-count"), "5");
    const throughput = await (await get(board, "/throughput")).json();
    assert.equal(throughput.reduce((sum: number, b: { failed: number }) => sum + b.failed, 0), 5);
  } finally {
    await board.close();
    await redis.stop();
  }
});

Deno.test("Redis down is a 503 STORE_UNAVAILABLE, and the board recovers", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 300 });
  const board = createBoard(source);
  const serves = async () => {
    const response = await get(board, "/overview");
    await response.body?.cancel();
    return response.status === 200;
  };
  try {
    // Under load the first overview (its scripts loaded cold) can outlast the 300 ms timeout.
    await waitFor(serves, { what: "the board to serve before Redis goes" });
    await redis.stop();
    for (const path of ["/overview", "/jobs/7deea1e0-af8c-4c24-bb84-c89069ee4b0a", "/dlq"]) {
      const response = await get(board, path);
      assert.equal(response.status, 503, path);
      assert.equal((await response.json()).code, "STORE_UNAVAILABLE");
    }
    await redis.restart();
    await loadFixture(redis.url);
    await waitFor(serves, { what: "the board to recover without a restart" });
  } finally {
    await board.close();
    await source.close();
    await redis.stop();
  }
});

Deno.test("an overview served with no command to Redis is a 503 once Redis is down, and recovers", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const client = await connectClient(redis.url);
  const source = createRedisSource({ url: redis.url, commandTimeoutMs: 300 });
  const board = createBoard(source);
  const overview = async () => {
    const response = await get(board, "/overview");
    await response.body?.cancel();
    return response.status;
  };
  try {
    // The live state's last writer from the tracking cache, once the leader's passes run.
    await waitFor(
      async () => (await commandsOf(client, async () => await overview() === 200)).size === 0,
      { what: "an overview that sends Redis no command" },
    );
    await client.close();
    await redis.stop();
    // Once the board's connections hear the server is gone (their sockets close a moment after
    // the process ends): an overview asked in that moment was answered 200 in CI.
    await waitFor(async () => await overview() === 503, { what: "a 503 with Redis down" });
    await redis.restart();
    await loadFixture(redis.url);
    await waitFor(async () => await overview() === 200, { what: "the board to recover" });
  } finally {
    await board.close();
    await source.close();
    await redis.stop();
  }
});

Deno.test("a keyspace in a wire format the board does not read is a clear 503", async () => {
  const redis = await startRedis();
  const client = await connectClient(redis.url);
  await client.hSet("taskora:meta", {
    wireVersion: "9",
    minCompat: "8",
    writtenBy: "taskora-wire-9",
  });
  const board = createBoard(redis.url);
  try {
    const response = await get(board, "/overview");
    assert.equal(response.status, 503);
    const body = await response.json();
    assert.equal(body.code, "INCOMPATIBLE_STORE");
    assert.match(body.error, /9/);
  } finally {
    await board.close();
    await client.close();
    await redis.stop();
  }
});
