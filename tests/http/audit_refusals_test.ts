/**
 * Refusals are kept apart from actions: a flood of refused requests cannot
 * push an action out of the trail, and the requests turned away before the
 * API (no session, the auth hook, another origin, too many requests) are in
 * the trail too, among the refusals.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { auditEntries, callApi } from "../helpers/audit.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

Deno.test("a flood of refused requests does not push an action out of the trail", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url, { auditMaxEntries: 100 });
  try {
    assert.equal((await callApi(board, "POST", "/schedules/weekly-cleanup/resume")).status, 200);
    // Fewer than a user's changes a minute (ACTIONS_PER_MINUTE), so the route refuses each.
    for (let n = 0; n < 250; n++) {
      const refused = await callApi(board, "POST", `/operations/junk-${n}/cancel`);
      assert.equal(refused.status, 404);
      await refused.body?.cancel();
    }
    const kept = await auditEntries(board, "?action=schedule.resume");
    assert.deepEqual(kept.map((e) => [e.user, e.target, e.outcome]), [
      ["anonymous", "weekly-cleanup", "ok"],
    ]);
    // The refusals are there too, the newest first, but not 250 of one client.
    const refusals = await auditEntries(board, "?outcome=error&limit=200");
    assert.ok(refusals.length > 0 && refusals.length < 200, `${refusals.length} refusals`);
    assert.equal(refusals[0].action, "operation.cancel");
    assert.equal(refusals[0].code, "NOT_FOUND");
    // Unfiltered, the page holds both, newest first.
    const both = await auditEntries(board, "?limit=200");
    assert.equal(both.at(-1)!.action, "schedule.resume");
    assert.equal(both[0].action, "operation.cancel");
  } finally {
    await board.close();
    await redis.stop();
  }
});

Deno.test("requests turned away before the API are recorded as refusals", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const hook = (request: Request) =>
    request.headers.get("x-user") === "mallory"
      ? new Response("go away", { status: 403 })
      : request.headers.get("x-user") === "eager"
      ? new Response("slow down", { status: 429 })
      : { name: request.headers.get("x-user") ?? "nobody", role: "admin" };
  const hooked = createBoard(redis.url, { auth: hook });
  const login = createBoard(redis.url, {
    auth: {
      authenticate: () => null,
      cookiePassword: "a-cookie-password-of-32-characters!!",
    },
  });
  try {
    assert.equal(
      (await callApi(hooked, "POST", "/schedules/heartbeat/pause", {
        "x-user": "mallory",
      })).status,
      403,
    );
    assert.equal((await callApi(hooked, "GET", "/overview", { "x-user": "eager" })).status, 429);
    assert.equal(
      (await callApi(hooked, "POST", "/schedules/heartbeat/pause", {
        origin: "http://evil.test",
      })).status,
      403,
    );
    assert.equal((await callApi(login, "POST", "/schedules/heartbeat/pause")).status, 401);
    assert.equal((await callApi(login, "GET", "/overview")).status, 401);

    // A board's read waits for its own writes, not another board's (the login board's 401s).
    const trail = await waitFor(async () => {
      const entries = await auditEntries(hooked, "?outcome=error");
      return entries.length >= 5 && entries;
    }, { what: "both boards' refusals in the shared trail" });
    // Two boards write without waiting for each other, so their entries may interleave either
    // way: compare what was recorded, in a fixed order.
    const recorded = trail.map((e) => [e.action, e.target, e.status, e.code].join(" ")).sort();
    assert.deepEqual(recorded, [
      "access.refused GET /overview 401 UNAUTHORIZED",
      "access.refused GET /overview 429 AUTH_HOOK",
      "schedule.pause heartbeat 401 UNAUTHORIZED",
      "schedule.pause heartbeat 403 AUTH_HOOK",
      "schedule.pause heartbeat 403 CROSS_ORIGIN",
    ]);
    // The schedule was never paused: no action was recorded.
    assert.deepEqual(await auditEntries(hooked, "?outcome=ok"), []);
  } finally {
    await hooked.close();
    await login.close();
    await redis.stop();
  }
});
