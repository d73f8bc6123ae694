/**
 * A mutation Redis did not confirm is never reported as not done. A second
 * client pauses writes (`CLIENT PAUSE ... WRITE`, what a failover does): the
 * board's write is sent, unanswered, and run once the pause ends, so the
 * answer is 504 `OUTCOME_UNKNOWN`, not 503. A schedule trigger repeated with
 * the same idempotency key after the pause makes exactly one job. A write
 * that never left the board (Redis down) stays 503 `STORE_UNAVAILABLE`.
 * The board writes a mutation's audit entry before the mutation, so the
 * pause starts just after that entry is written, as the mutation goes out;
 * a pause that holds back the entry itself leaves the mutation undone (503).
 */

import assert from "node:assert/strict";
import { createBoard } from "../helpers/checked_board.ts";
import { RETRY_FAILED_BATCH, TRIGGER_DISPATCH } from "../../src/source/redis/action_scripts.ts";
import { AUDIT_APPEND } from "../../src/store/redis/audit.ts";
import { TAKE_SCAN_SLOT } from "../../src/store/redis/scan_slots.ts";
import { auditKey, taskKeys } from "../../src/source/wire/keys.ts";
import { loadFixture } from "../helpers/fixture.ts";
import { pausableSource } from "../helpers/pause_after_entry.ts";
import { connectClient, startRedis, type TestRedis } from "../helpers/redis_server.ts";
import { waitFor } from "../helpers/wait_for.ts";

type Client = Awaited<ReturnType<typeof connectClient>>;
type Post = (path: string, headers?: Record<string, string>) => Promise<Response>;

const EMAIL = taskKeys("send-email");
const REPORT = taskKeys("report");

async function withPausableBoard(
  body: (
    ctx: {
      post: Post;
      get: (path: string) => Promise<Response>;
      admin: Client;
      redis: TestRedis;
      pauseAfterEntry: () => void;
    },
  ) => Promise<void>,
  commandTimeoutMs = 2000,
): Promise<void> {
  const redis = await startRedis();
  await loadFixture(redis.url);
  const admin = await connectClient(redis.url);
  // A 2 s replies deadline: the writes before a pause answer within it on a loaded machine (at 500 ms
  // an audit entry missed it once), and the pauses below (20 s) outlast it.
  const { source, pauseAfterEntry } = pausableSource(redis.url, commandTimeoutMs);
  const board = createBoard(source);
  const post: Post = async (path, headers = {}) =>
    await board.fetch(
      new Request(`http://board.test/board/api${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: "{}",
      }),
    );
  try {
    const get = async (path: string) =>
      await board.fetch(new Request(`http://board.test/board/api${path}`));
    await body({ post, get, admin, redis, pauseAfterEntry });
  } finally {
    await board.close();
    await source.close();
    admin.destroy();
    await redis.stop();
  }
}

async function expectCode(response: Response, status: number, code: string): Promise<string> {
  const body = await response.json();
  assert.equal(response.status, status, JSON.stringify(body));
  assert.equal(body.code, code);
  return body.error;
}

Deno.test("retry-all while Redis pauses writes is 504 OUTCOME_UNKNOWN, and it is applied later", async () => {
  await withPausableBoard(async ({ post, admin, pauseAfterEntry }) => {
    // Loaded now, so the paused call is the retry itself, not a NOSCRIPT.
    await admin.scriptLoad(RETRY_FAILED_BATCH.source);
    assert.equal(await admin.zCard(EMAIL.failed), 5);
    pauseAfterEntry();
    const message = await expectCode(
      await post("/tasks/send-email/retry-all"),
      504,
      "OUTCOME_UNKNOWN",
    );
    assert.match(message, /may have been applied.*Check before retrying/);
    await admin.sendCommand(["CLIENT", "UNPAUSE"]);
    await waitFor(async () => await admin.zCard(EMAIL.failed) === 0, { what: "the retry ran" });
    assert.equal(
      await admin.hGet(`${EMAIL.jobPrefix}7deea1e0-af8c-4c24-bb84-c89069ee4b0a`, "state"),
      "waiting",
    );
  });
});

Deno.test("a trigger while Redis pauses writes is 504; sent again with its key, it makes one job", async () => {
  await withPausableBoard(async ({ post, admin, pauseAfterEntry }) => {
    await admin.scriptLoad(TRIGGER_DISPATCH.source);
    const key = { "Idempotency-Key": "click-7f3a" };
    const waitingBefore = await admin.lLen(REPORT.wait);
    pauseAfterEntry();
    await expectCode(await post("/schedules/nightly-report/trigger", key), 504, "OUTCOME_UNKNOWN");
    await admin.sendCommand(["CLIENT", "UNPAUSE"]);
    await waitFor(
      async () => await admin.lLen(REPORT.wait) === waitingBefore + 1,
      { what: "the paused trigger dispatched" },
    );
    const [dispatched] = await admin.lRange(REPORT.wait, 0, 0);

    const again = await post("/schedules/nightly-report/trigger", key);
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), { ok: true, jobId: dispatched, created: false });
    assert.equal(await admin.lLen(REPORT.wait), waitingBefore + 1, "exactly one job");
    assert.equal(await admin.hGet(`${REPORT.jobPrefix}${dispatched}`, "state"), "waiting");

    const other = await (await post("/schedules/nightly-report/trigger", {
      "Idempotency-Key": "click-8b01",
    })).json();
    assert.equal(other.created, true, "another click is another run");
    assert.notEqual(other.jobId, dispatched);
  });
});

Deno.test("a write whose connection drops before the answer is 504 OUTCOME_UNKNOWN", async () => {
  await withPausableBoard(async ({ post, admin, pauseAfterEntry }) => {
    await admin.scriptLoad(RETRY_FAILED_BATCH.source);
    pauseAfterEntry();
    const answer = post("/tasks/send-email/retry-all");
    // Once the board's retry waits in Redis (held by the pause: a blocked client; the audit
    // entry's script ran before the pause), its connection is cut.
    await waitFor(
      async () => /blocked_clients:[1-9]/.test(await admin.sendCommand(["INFO", "clients"])),
      { what: "the retry reached Redis" },
    );
    await admin.sendCommand(["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"]);
    const message = await expectCode(await answer, 504, "OUTCOME_UNKNOWN");
    assert.doesNotMatch(message, /did not answer within/, "cut, not timed out");
    await admin.sendCommand(["CLIENT", "UNPAUSE"]);
  }, 30_000);
});

Deno.test("a mutation while Redis is down was never sent: 503 STORE_UNAVAILABLE", async () => {
  await withPausableBoard(async ({ post, redis }) => {
    assert.equal((await post("/tasks/send-email/retry-all")).status, 200);
    await redis.stop();
    await expectCode(await post("/tasks/send-email/retry-all"), 503, "STORE_UNAVAILABLE");
    await expectCode(
      await post("/schedules/nightly-report/trigger", { "Idempotency-Key": "k" }),
      503,
      "STORE_UNAVAILABLE",
    );
  });
});

Deno.test("a pause that holds back the audit entry leaves the mutation undone: 503, and undone after", async () => {
  await withPausableBoard(async ({ post, admin }) => {
    await admin.scriptLoad(RETRY_FAILED_BATCH.source);
    // Known to Redis, as on a board that has written an entry before: the held call runs then.
    await admin.scriptLoad(AUDIT_APPEND.source);
    await admin.sendCommand(["CLIENT", "PAUSE", "20000", "WRITE"]);
    await expectCode(await post("/tasks/send-email/retry-all"), 503, "STORE_UNAVAILABLE");
    await admin.sendCommand(["CLIENT", "UNPAUSE"]);
    // The entry, sent and held, lands once the pause ends (pending: no outcome was recorded).
    await waitFor(async () => await admin.xLen(auditKey()) === 1, {
      what: "the held entry landed",
    });
    assert.equal(await admin.zCard(EMAIL.failed), 5, "the retry was never sent");
  });
});

Deno.test("a search while Redis pauses writes is 503: its scan slot's claim is the board's own write, no change asked for", async () => {
  await withPausableBoard(async ({ get, admin }) => {
    await admin.scriptLoad(TAKE_SCAN_SLOT.source);
    await admin.sendCommand(["CLIENT", "PAUSE", "20000", "WRITE"]);
    const message = await expectCode(
      await get("/tasks/send-email/jobs/search?state=failed"),
      503,
      "STORE_UNAVAILABLE",
    );
    assert.doesNotMatch(message, /Check before retrying/);
    await admin.sendCommand(["CLIENT", "UNPAUSE"]);
  });
});
