/**
 * `POST /api/alerts/test`: a test notice goes through the sink's real
 * delivery (signed, retried after its backoff) to a local receiver, and the
 * answer says how it went.
 */

import assert from "node:assert/strict";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { auditEntries } from "../helpers/audit.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { verifySignature, webhookReceiver } from "../helpers/webhook_receiver.ts";

const SECRET = "a-webhook-secret-of-32-characters";

function alertsTo(url: string, retries: number): AlertsFile {
  return {
    boardUrl: "https://ops.example/board",
    sinks: [{ name: "ops", type: "webhook", url, secret: SECRET, retries }],
    rules: [],
  };
}

function boardWith(alerts?: AlertsFile) {
  const timers = new FakeTimers();
  const source = createMemorySource();
  const board = createBoardOn(timers, source, alerts ? { alerts } : {});
  const send = async (sink: string) => {
    const response = await board.fetch(
      new Request("http://board.test/board/api/alerts/test", {
        method: "POST",
        headers: { origin: "http://board.test", "content-type": "application/json" },
        body: JSON.stringify({ sink }),
      }),
    );
    return { status: response.status, body: await response.json() };
  };
  return {
    board,
    timers,
    send,
    close: async () => {
      await board.close();
      await source.close();
    },
  };
}

Deno.test("a test notice is signed, retried after a 500, and answered delivered on the second try", async () => {
  const hook = webhookReceiver([500, 200]);
  const { board, timers, send, close } = boardWith(alertsTo(hook.url, 2));
  try {
    const answer = send("ops");
    // The first attempt fails; the retry waits out the 1 s backoff on the board's timers.
    await waitFor(() => hook.received.length === 1, { what: "the first attempt" });
    await waitFor(async () => (await timers.tick(1000), hook.received.length === 2), {
      what: "the retry",
    });
    assert.deepEqual(await answer, {
      status: 200,
      body: { sink: "ops", outcome: "delivered", attempts: 2 },
    });
    const { headers, body } = hook.received[1];
    assert.equal(
      await verifySignature(SECRET, headers.get("x-queue-board-signature")!, body),
      true,
    );
    const notice = JSON.parse(body);
    assert.deepEqual(
      [notice.test, notice.state, notice.rule, notice.link],
      [true, "firing", "test notice", "https://ops.example/board/alerts"],
    );
    const trail = await auditEntries(board, "?action=alerts.update");
    assert.deepEqual(trail.map((e) => [e.target, e.outcome]), [["test", "ok"]]);
  } finally {
    await close();
    await hook.close();
  }
});

Deno.test("a test notice the sink never takes is answered failed, with the reason", async () => {
  const hook = webhookReceiver([503]);
  const { send, close } = boardWith(alertsTo(hook.url, 0));
  try {
    assert.deepEqual(await send("ops"), {
      status: 200,
      body: { sink: "ops", outcome: "failed", reason: "HTTP 503", attempts: 1 },
    });
  } finally {
    await close();
    await hook.close();
  }
});

Deno.test("a test notice to no configured sink is refused: 400 naming sink, 409 without alerts", async () => {
  const hook = webhookReceiver();
  const configured = boardWith(alertsTo(hook.url, 0));
  const bare = boardWith();
  try {
    const unknown = await configured.send("pager");
    assert.deepEqual([unknown.status, unknown.body.code, unknown.body.param], [
      400,
      "INVALID_PARAM",
      "sink",
    ]);
    const off = await bare.send("ops");
    assert.deepEqual([off.status, off.body.code], [409, "CONFLICT"]);
    assert.equal(hook.received.length, 0);
  } finally {
    await configured.close();
    await bare.close();
    await hook.close();
  }
});

Deno.test("one test notice per sink at a time: another while it is under way is 409, none piles up", async () => {
  const hook = webhookReceiver([500, 200]);
  const { timers, send, close } = boardWith(alertsTo(hook.url, 2));
  try {
    const first = send("ops");
    await waitFor(() => hook.received.length === 1, {
      what: "the first attempt, then its backoff",
    });
    const again = await send("ops");
    assert.equal(again.status, 409);
    assert.equal(again.body.code, "CONFLICT");
    assert.match(again.body.error, /under way/);
    await waitFor(async () => (await timers.tick(1000), hook.received.length === 2), {
      what: "the first notice's retry",
    });
    assert.equal((await first).body.outcome, "delivered");
    assert.equal(hook.received.length, 2, "the refused one posted nothing");
    assert.equal((await send("ops")).status, 200, "free again once the first is over");
  } finally {
    await close();
    await hook.close();
  }
});
