/**
 * The sinks against a local HTTP receiver: the webhook's signature verifies
 * with the few lines docs/alerts.md shows, failed attempts are retried with
 * backoff on the injected timers, and a notice that cannot be delivered is
 * reported as failed.
 */

import assert from "node:assert/strict";
import { deliverNotice } from "../../src/alerts/delivery.ts";
import type { AlertNotice, AlertSink, GroupedAlert } from "../../src/contract/alerts.ts";
import type { Timers } from "../../src/timers.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { verifySignature, webhookReceiver } from "../helpers/webhook_receiver.ts";

const SECRET = "at-least-32-characters-long-secret";
const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);

const notice: AlertNotice = {
  rule: "send-email failing",
  kind: "failed",
  state: "firing",
  key: "send-email failing|send-email|1764158400000",
  task: "send-email",
  figure: 7,
  threshold: 5,
  unit: "count",
  since: NOW - 60_000,
  at: NOW,
  repeat: false,
  link: "https://board.example/board/tasks/send-email?state=failed",
  summary: "send-email: 7 failed jobs, above 5",
};

function sink(url: string, extra: Partial<AlertSink> = {}): AlertSink {
  return {
    name: "ops",
    type: "webhook",
    url,
    secret: SECRET,
    timeoutMs: 5000,
    retries: 3,
    ...extra,
  };
}

/**
 * Fake timers that note each timeout's length, and a function that waits
 * for each backoff given to be set, then moves the clock past it.
 */
function notingTimers(): {
  timers: Timers;
  timeouts: readonly number[];
  waitOutBackoffs: (ms: number[]) => Promise<void>;
} {
  const fake = new FakeTimers();
  const timeouts: number[] = [];
  const timers: Timers = {
    now: () => fake.now(),
    setTimeout: (callback, ms) => (timeouts.push(ms), fake.setTimeout(callback, ms)),
    clearTimeout: (id) => fake.clearTimeout(id),
    setInterval: (callback, ms) => fake.setInterval(callback, ms),
    clearInterval: (id) => fake.clearInterval(id),
    unref: () => {},
  };
  async function waitOutBackoffs(backoffs: number[]): Promise<void> {
    for (const backoff of backoffs) {
      await waitFor(() => timeouts.includes(backoff), { what: `a backoff of ${backoff} ms` });
      await fake.tick(backoff);
    }
  }
  return { timers, timeouts, waitOutBackoffs };
}

const clock = () => NOW;

Deno.test("the webhook posts the notice as JSON, signed over the timestamp and the body", async () => {
  const hook = webhookReceiver([200]);
  try {
    const report = await deliverNotice(sink(hook.url), notice, { timers: new FakeTimers(), clock });
    assert.deepEqual(report, { sink: "ops", outcome: "delivered", attempts: 1, error: null });
    const [{ headers, body }] = hook.received;
    assert.equal(headers.get("content-type"), "application/json");
    const parsed = JSON.parse(body);
    assert.deepEqual(
      [parsed.rule, parsed.state, parsed.key, parsed.task, parsed.figure, parsed.threshold],
      [notice.rule, "firing", notice.key, "send-email", 7, 5],
    );
    assert.equal(parsed.link, notice.link);
    const header = headers.get("x-queue-board-signature")!;
    assert.match(header, new RegExp(`^t=${NOW / 1000},v1=[0-9a-f]{64}$`));
    assert.equal(await verifySignature(SECRET, header, body), true);
    assert.equal(
      await verifySignature(SECRET, header, body.replace('"firing"', '"resolved"')),
      false,
    );
    assert.equal(await verifySignature(`${SECRET}!`, header, body), false);
  } finally {
    await hook.close();
  }
});

Deno.test("a receiver answering 500 twice then 200 gets the notice once, on the third try", async () => {
  const hook = webhookReceiver([500, 500, 200]);
  const { timers, waitOutBackoffs } = notingTimers();
  try {
    const delivery = deliverNotice(sink(hook.url), notice, { timers, clock });
    await waitOutBackoffs([1000, 2000]);
    assert.deepEqual(await delivery, {
      sink: "ops",
      outcome: "delivered",
      attempts: 3,
      error: null,
    });
    assert.equal(hook.received.length, 3);
    assert.equal(new Set(hook.received.map((r) => r.body)).size, 1, "the same notice each time");
  } finally {
    await hook.close();
  }
});

Deno.test("a notice that cannot be delivered after its retries is reported as failed", async () => {
  const hook = webhookReceiver([503]);
  const { timers, waitOutBackoffs } = notingTimers();
  try {
    const delivery = deliverNotice(sink(hook.url, { retries: 2 }), notice, { timers, clock });
    await waitOutBackoffs([1000, 2000]);
    assert.deepEqual(await delivery, {
      sink: "ops",
      outcome: "failed",
      attempts: 3,
      error: "HTTP 503",
    });
    assert.equal(hook.received.length, 3, "retries are bounded");
  } finally {
    await hook.close();
  }
});

Deno.test("an attempt that outlasts the sink's timeout is aborted and counted as failed", async () => {
  let answer = () => {};
  const held = new Promise<void>((resolve) => answer = resolve);
  let reached = false;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async () => {
    reached = true;
    await held;
    return new Response(null, { status: 200 });
  });
  const fake = new FakeTimers();
  try {
    const url = `http://127.0.0.1:${server.addr.port}/hook`;
    const delivery = deliverNotice(sink(url, { retries: 0, timeoutMs: 3000 }), notice, {
      timers: fake,
      clock,
    });
    await waitFor(() => reached, { what: "the request at the receiver" });
    await fake.tick(3000);
    assert.deepEqual(await delivery, {
      sink: "ops",
      outcome: "failed",
      attempts: 1,
      error: "timed out after 3000 ms",
    });
  } finally {
    answer();
    await server.shutdown();
  }
});

Deno.test("a delivery ended during its backoff posts no more: one attempt, failed as closed", async () => {
  const hook = webhookReceiver([503, 200]);
  const { timers, timeouts } = notingTimers();
  const closing = new AbortController();
  try {
    const delivery = deliverNotice(sink(hook.url), notice, {
      timers,
      clock,
      signal: closing.signal,
    });
    // The first attempt failed and its 1 s backoff is set: the board closes then.
    await waitFor(() => timeouts.includes(1000), { what: "the backoff after the first attempt" });
    closing.abort();
    assert.deepEqual(await delivery, {
      sink: "ops",
      outcome: "failed",
      attempts: 1,
      error: "the board closed",
    });
    assert.equal(hook.received.length, 1, "nothing is posted after the end");
  } finally {
    await hook.close();
  }
});

Deno.test("a delivery whose board closed while it was being signed posts nothing: failed as closed", async () => {
  // The board closing between a notice's dispatch and its post: the abort came before the post
  // listened for it, so only a look at the signal stops a post no timeout would end (fake timers).
  const hook = webhookReceiver([200]);
  const closing = new AbortController();
  closing.abort();
  try {
    const report = await deliverNotice(sink(hook.url), notice, {
      timers: new FakeTimers(),
      clock,
      signal: closing.signal,
    });
    assert.deepEqual(report, {
      sink: "ops",
      outcome: "failed",
      attempts: 1,
      error: "the board closed",
    });
    assert.equal(hook.received.length, 0, "nothing is posted after the end");
  } finally {
    await hook.close();
  }
});

Deno.test("a failure names no URL: a Slack webhook's URL is its secret", async () => {
  const url = "http://127.0.0.1:9/services/T000/B000/secret-token";
  const report = await deliverNotice(
    sink(url, { type: "slack", secret: null, retries: 0 }),
    notice,
    {
      timers: new FakeTimers(),
      clock,
    },
  );
  assert.equal(report.outcome, "failed");
  assert.equal(report.error, "connection failed");
});

Deno.test("the Slack sink posts the same notice as blocks, unsigned", async () => {
  const hook = webhookReceiver([200]);
  try {
    const report = await deliverNotice(
      sink(hook.url, { name: "chat", type: "slack", secret: null }),
      { ...notice, task: "<b>&", summary: "send-email: 7 failed jobs, above 5" },
      { timers: new FakeTimers(), clock },
    );
    assert.equal(report.outcome, "delivered");
    const [{ headers, body }] = hook.received;
    assert.equal(headers.get("x-queue-board-signature"), null);
    const { text, blocks } = JSON.parse(body);
    assert.equal(text, "FIRING send-email failing: send-email: 7 failed jobs, above 5");
    const all = JSON.stringify(blocks);
    assert.ok(all.includes("&lt;b&gt;&amp;"), "task names are escaped for mrkdwn");
    assert.ok(all.includes(`<${notice.link}|Open the board>`), all);
    assert.ok(all.includes(notice.key), "the dedupe key");
    assert.equal(blocks[0].type, "header");
  } finally {
    await hook.close();
  }
});

Deno.test("the Slack sink lists a grouped notice's alerts, a line each, and how many more", async () => {
  const hook = webhookReceiver([200]);
  const alert = (task: string): GroupedAlert => ({
    key: `send-email failing|${task}|1764158400000`,
    state: "firing",
    task,
    figure: 7,
    since: notice.since,
    repeat: false,
    link: notice.link,
    summary: `${task}: 7 failed jobs`,
  });
  try {
    await deliverNotice(sink(hook.url, { name: "chat", type: "slack", secret: null }), {
      ...notice,
      task: null,
      summary: "send-email failing: 30 alerts firing: a, <b> and 28 more",
      alerts: [alert("a"), alert("<b>")],
      count: 30,
    }, { timers: new FakeTimers(), clock });
    const { blocks } = JSON.parse(hook.received[0].body);
    const listed = blocks.find((block: { text?: { text: string } }) =>
      block.text?.text.startsWith("•")
    );
    assert.equal(
      listed.text.text,
      "• a: 7 failed jobs\n• &lt;b&gt;: 7 failed jobs\n… and 28 more",
    );
  } finally {
    await hook.close();
  }
});
