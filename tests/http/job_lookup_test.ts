/**
 * `GET /jobs/{id}` by the start of an id, over a real Redis holding the
 * taskora fixture: the 8-character ids the UI shows (a schedule's last run,
 * a workflow node, a table row) open their job once the board has shown
 * them; a prefix that fits several jobs names them; actions take whole ids.
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { connectClient, startRedis } from "../helpers/redis_server.ts";
import { writeJob } from "../helpers/wire_writer.ts";

/** The fixture's `heartbeat` schedule last dispatched this job. */
const HEARTBEAT_LAST_JOB = "49e833ba-6ef4-41a3-9c4a-827a99ffcd1b";

type Call = (path: string, init?: RequestInit) => Promise<Response>;

function lookupTest(name: string, body: (call: Call, url: string) => Promise<void>) {
  Deno.test(name, async () => {
    const redis = await startRedis();
    await loadFixture(redis.url);
    const board = createBoard(redis.url);
    try {
      await body(
        async (path, init) =>
          await board.fetch(new Request(`http://board.test/board/api${path}`, init)),
        redis.url,
      );
    } finally {
      await board.close();
      await redis.stop();
    }
  });
}

lookupTest("a short id the board has shown opens its job, whole id included", async (call) => {
  const short = HEARTBEAT_LAST_JOB.slice(0, 8);
  const before = await call(`/jobs/${short}`);
  assert.equal(before.status, 404);
  assert.match((await before.json()).error, /none the board listed recently starts with it/);

  await (await call("/schedules")).body?.cancel();
  const job = await (await call(`/jobs/${short}`)).json();
  assert.deepEqual([job.id, job.task], [HEARTBEAT_LAST_JOB, "report"]);
  assert.equal((await (await call(`/jobs/${HEARTBEAT_LAST_JOB.slice(0, 6)}`)).json()).id, job.id);
});

lookupTest("workflow nodes and job pages make their ids findable by prefix", async (call) => {
  const [workflow] = await (await call("/workflows?limit=1")).json();
  const detail = await (await call(`/workflows/${workflow.id}`)).json();
  const node = detail.nodes[0];
  const found = await (await call(`/jobs/${node.jobId.slice(0, 8)}`)).json();
  assert.equal(found.id, node.jobId);

  const [failed] = await (await call("/tasks/send-email/jobs?state=failed&limit=1")).json();
  assert.equal((await (await call(`/jobs/${failed.id.slice(0, 8)}`)).json()).id, failed.id);
});

lookupTest(
  "a prefix of several jobs is a 400 naming them; under 6 characters, a 404",
  async (call, url) => {
    const client = await connectClient(url);
    const ids = ["c0ffee00-0000-4000-8000-000000000001", "c0ffee00-0000-4000-8000-000000000002"];
    for (const id of ids) await writeJob(client, { task: "send-email", id, state: "waiting" });
    await client.close();
    await (await call("/tasks/send-email/jobs?state=waiting")).body?.cancel();

    const ambiguous = await call("/jobs/c0ffee00");
    const body = await ambiguous.json();
    assert.equal(ambiguous.status, 400);
    assert.deepEqual([body.code, body.param], ["INVALID_PARAM", "jobId"]);
    assert.equal(
      body.error,
      `"c0ffee00" is the start of several job IDs: ${ids[0]} (send-email), ${
        ids[1]
      } (send-email). Type more of the ID.`,
    );
    // The whole id is never ambiguous, though it starts the other's id too.
    assert.equal((await (await call(`/jobs/${ids[1]}`)).json()).id, ids[1]);

    const short = await call("/jobs/c0ffe");
    assert.equal(short.status, 404);
    assert.equal((await short.json()).error, 'Job "c0ffe" not found');
  },
);

lookupTest(
  "actions take whole ids only: a prefix is not a job to retry or cancel",
  async (call) => {
    await (await call("/schedules")).body?.cancel();
    for (const action of ["retry", "cancel"]) {
      const response = await call(`/jobs/${HEARTBEAT_LAST_JOB.slice(0, 8)}/${action}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      assert.equal(response.status, 404, action);
      assert.equal((await response.json()).code, "JOB_NOT_FOUND");
    }
  },
);
