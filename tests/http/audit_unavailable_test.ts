/**
 * No write without its entry: the board writes a mutation's audit entry
 * before it acts, and refuses the mutation (503 `AUDIT_UNAVAILABLE`,
 * nothing changed) when the entry cannot be written, e.g. under
 * `maxmemory` with `noeviction`, the policy taskora's docs ask for.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { auditEntries, callApi } from "../helpers/audit.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { startRedis, withClient } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

const FAILED = "7deea1e0-af8c-4c24-bb84-c89069ee4b0a";

Deno.test("under maxmemory with noeviction a retry is refused with AUDIT_UNAVAILABLE, the job untouched", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url);
  const jobKey = `taskora:{send-email}:${FAILED}`;
  try {
    // Connected first: under load ~30 a first connection took over the board's 2 s, and the
    // retry was refused as STORE_UNAVAILABLE, not for its entry.
    await waitFor(async () => {
      const response = await callApi(board, "GET", `/jobs/${FAILED}`);
      await response.body?.cancel();
      return response.status === 200;
    }, { what: "the board to read the job" });
    await withClient(redis.url, async (client) => {
      // Full: every write that may grow memory is refused, the trail's XADD too.
      await client.configSet({ "maxmemory-policy": "noeviction", maxmemory: "1" });
    });
    const refused = await callApi(board, "POST", `/jobs/${FAILED}/retry`);
    assert.equal(refused.status, 503);
    const body = await refused.json();
    assert.equal(body.code, "AUDIT_UNAVAILABLE");
    assert.equal(await withClient(redis.url, (client) => client.hGet(jobKey, "state")), "failed");

    await withClient(redis.url, (client) => client.configSet("maxmemory", "0"));
    assert.equal((await callApi(board, "POST", `/jobs/${FAILED}/retry`)).status, 200);
    assert.deepEqual((await auditEntries(board)).map((e) => [e.action, e.outcome]), [
      ["job.retry", "ok"],
    ]);
  } finally {
    await board.close();
    await redis.stop();
  }
});

Deno.test("a trail the store refuses to append to refuses the action, which is not performed", async () => {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const board = createBoard(redis.url);
  const jobKey = `taskora:{send-email}:${FAILED}`;
  try {
    // The job's script would run; only the trail's XADD fails (WRONGTYPE).
    await withClient(redis.url, (client) => client.set("taskora:board:audit", "not a stream"));
    const refused = await callApi(board, "POST", `/jobs/${FAILED}/retry`);
    assert.equal(refused.status, 503);
    assert.equal((await refused.json()).code, "AUDIT_UNAVAILABLE");
    assert.equal(await withClient(redis.url, (client) => client.hGet(jobKey, "state")), "failed");
  } finally {
    await board.close();
    await redis.stop();
  }
});
