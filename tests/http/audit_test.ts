/**
 * The audit trail over HTTP on a real Redis: every mutation, refused or
 * not, is recorded once with who, what, on what, how many and the outcome;
 * two boards on one keyspace read the same trail; `GET /audit` filters and
 * pages it, `?format=ndjson` exports it; a read-only board writes none.
 */

import assert from "node:assert/strict";
import { ACTIONS_PER_MINUTE } from "../../src/audit/client_limit.ts";
import { createBoard } from "../helpers/checked_board.ts";
import { auditEntries, callApi } from "../helpers/audit.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";

const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";

Deno.test("every mutation is recorded once, with its user, target, count and outcome", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  // The hook names who acts; a second board on the same keyspace shares the trail.
  const hook = (request: Request) => ({
    name: request.headers.get("x-user") ?? "nobody",
    role: "admin",
  });
  const board = createBoard(redis.url, { auth: hook });
  const replica = createBoard(redis.url);
  try {
    assert.equal(
      (await callApi(board, "POST", `/jobs/${FAILED}/retry`, { "x-user": "ada" })).status,
      200,
    );
    const again = await callApi(board, "POST", `/jobs/${FAILED}/retry`, { "x-user": "bob" });
    assert.equal(again.status, 409);
    assert.equal((await callApi(replica, "POST", "/tasks/send-email/retry-all")).status, 200);
    const refused = await callApi(board, "POST", "/tasks/send-email/clean", {
      "content-type": "text/plain",
    });
    assert.equal(refused.status, 400);

    // A board's read waits for its own writes (an outcome replacing its pending entry): read
    // through it first, then through the replica, which shares the trail.
    await auditEntries(board);
    const trail = await auditEntries(replica);
    assert.deepEqual(
      trail.map((e) => [e.user, e.action, e.target, e.task, e.count, e.outcome, e.code]),
      [
        ["nobody", "task.clean", "send-email", "send-email", null, "error", "INVALID_PARAM"],
        ["anonymous", "task.retry-all", "send-email", "send-email", 4, "ok", null],
        ["bob", "job.retry", FAILED, null, null, "error", "INVALID_STATE"],
        ["ada", "job.retry", FAILED, "send-email", 1, "ok", null],
      ],
    );
    assert.match(trail[2].detail!, /waiting/);

    assert.deepEqual((await auditEntries(board, "?user=bob")).map((e) => e.user), ["bob"]);
    assert.deepEqual(
      (await auditEntries(board, "?outcome=ok&action=job.retry")).map((e) => e.user),
      [
        "ada",
      ],
    );
    const first = await (await callApi(board, "GET", "/audit?limit=1")).json();
    assert.equal(first.entries.length, 1);
    assert.equal(first.shared, true);
    assert.equal(first.maxEntries, 50_000);
    assert.equal(first.maxAgeMs, 30 * 86_400_000);
    const rest = await auditEntries(board, `?before=${first.next}`);
    assert.equal(rest.length, 3);

    const exported = await callApi(board, "GET", "/audit?format=ndjson&task=send-email");
    assert.equal(exported.headers.get("content-type"), "application/x-ndjson");
    const lines = (await exported.text()).trim().split("\n").map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((e) => e.action), [
      "task.clean",
      "task.retry-all",
      "job.retry",
    ]);
  } finally {
    await board.close();
    await replica.close();
    await redis.stop();
  }
});

Deno.test("a change that changed nothing leaves no entry, and a flood of changes is refused, not recorded", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url);
  try {
    const first = await callApi(board, "POST", "/tasks/send-email/retry-all");
    assert.equal((await first.json()).retried, 5);
    // The flood that pushed an admin's action out: retry-alls that find no job.
    for (let n = 1; n < ACTIONS_PER_MINUTE; n++) {
      const again = await callApi(board, "POST", "/tasks/send-email/retry-all");
      assert.equal((await again.json()).retried, 0);
    }
    const refused = await callApi(board, "POST", "/tasks/send-email/retry-all");
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).code, "TOO_MANY_ATTEMPTS");
    const trail = await auditEntries(board);
    assert.deepEqual(trail.map((e) => [e.action, e.count, e.outcome, e.code]), [
      ["task.retry-all", null, "error", "TOO_MANY_ATTEMPTS"],
      ["task.retry-all", 5, "ok", null],
    ]);
  } finally {
    await board.close();
    await redis.stop();
  }
});

Deno.test("Run again and the edited retry are recorded under their own actions", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url);
  try {
    assert.equal((await callApi(board, "POST", `/jobs/${FAILED}/rerun`)).status, 200);
    assert.equal((await callApi(board, "POST", `/jobs/${FAILED}/retry-edited`)).status, 400);
    const trail = await auditEntries(board);
    assert.deepEqual(trail.map((e) => [e.action, e.target, e.task, e.outcome, e.code]), [
      ["job.retry-edited", FAILED, null, "error", "INVALID_PARAM"],
      ["job.rerun", FAILED, "send-email", "ok", null],
    ]);
    assert.equal((await auditEntries(board, "?action=job.retry-edited")).length, 1);
  } finally {
    await board.close();
    await redis.stop();
  }
});

Deno.test("a read-only board records nothing; bad audit filters are a 400 naming them", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url, { readOnly: true });
  try {
    assert.equal((await callApi(board, "POST", `/jobs/${FAILED}/retry`)).status, 403);
    // Nor what the guards before the API turn away.
    const foreign = await callApi(board, "POST", `/jobs/${FAILED}/retry`, {
      origin: "http://evil.test",
    });
    assert.equal((await foreign.json()).code, "CROSS_ORIGIN");
    assert.deepEqual(await auditEntries(board), []);
    for (
      const [query, param] of [
        ["?limit=0", "limit"],
        ["?limit=201", "limit"],
        ["?before=abc", "before"],
        ["?from=5&to=1", "from"],
        ["?outcome=maybe", "outcome"],
        ["?action=drop.table", "action"],
        ["?format=xml", "format"],
        [`?user=${"x".repeat(300)}`, "user"],
      ]
    ) {
      const response = await callApi(board, "GET", `/audit${query}`);
      assert.equal(response.status, 400, query);
      const body = await response.json();
      assert.equal(body.code, "INVALID_PARAM");
      assert.equal(body.param, param);
    }
  } finally {
    await board.close();
    await redis.stop();
  }
});
