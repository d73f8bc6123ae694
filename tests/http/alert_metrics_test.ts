/**
 * `/metrics` and the alerts: `queue_board_alert_firing{rule}` (how many of
 * the rule's alerts fire, read from the store, so every board agrees, with
 * `queue_board_alert_evaluated_timestamp_seconds`, when that was) and
 * `queue_board_alert_notices_total{sink,outcome}` (the deliveries of the
 * notices this board sent), `queue_board_alert_notices_queued{sink}` and
 * `queue_board_alert_notices_dropped_total{sink}` (each sink's queue).
 */

import assert from "node:assert/strict";
import { SINK_CONCURRENCY, SINK_KEPT_SIZE, SINK_QUEUE_SIZE } from "../../src/alerts/sink_queue.ts";
import type { AlertsFile } from "../../src/contract/alerts.ts";
import { createMemorySource } from "../../src/source/memory/mod.ts";
import { createBoardOn } from "../helpers/checked_board.ts";
import { FakeTimers } from "../helpers/fake_timers.ts";
import { readFixture } from "../helpers/fixture.ts";
import { waitFor } from "../helpers/wait_for.ts";
import { hangingReceiver, webhookReceiver } from "../helpers/webhook_receiver.ts";

const SECRET = "a-webhook-secret-of-32-characters";

function alertsTo(okUrl: string, failingUrl: string): AlertsFile {
  return {
    evaluateEvery: "10s",
    sinks: [
      { name: "ops", type: "webhook", url: okUrl, secret: SECRET },
      { name: "broken", type: "webhook", url: failingUrl, secret: SECRET, retries: 0 },
    ],
    rules: [
      {
        name: "mail failing",
        kind: "failed",
        tasks: ["send-email"],
        threshold: 4,
        sinks: ["ops", "broken"],
      },
      { name: "huge backlog", kind: "backlog", threshold: 1e6, sinks: ["ops"] },
    ],
  };
}

/** The value of the sample line `series` in an exposition, or undefined. */
function sampleOf(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

Deno.test("/metrics counts each rule's firing alerts and the notices' deliveries by outcome", async () => {
  const ok = webhookReceiver();
  const failing = webhookReceiver([500]);
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  const board = createBoardOn(timers, source, {
    alerts: alertsTo(ok.url, failing.url),
    metrics: {},
  });
  const scrape = async () =>
    await (await board.fetch(new Request("http://board.test/board/metrics"))).text();
  try {
    const before = await scrape();
    assert.equal(sampleOf(before, 'queue_board_alert_firing{rule="mail failing"}'), 0);
    assert.equal(
      sampleOf(before, "queue_board_alert_evaluated_timestamp_seconds"),
      0,
      "no evaluation yet: 0, never",
    );
    await waitFor(
      async () => (await timers.tick(10_000),
        (await source.boardStore.listAlertHistory(5)).length > 0),
      {
        what: "the notice kept with its outcome",
      },
    );
    const text = await scrape();
    assert.match(text, /# HELP queue_board_alert_firing .*count of its alerts firing/i);
    assert.equal(sampleOf(text, 'queue_board_alert_firing{rule="mail failing"}'), 1);
    assert.equal(sampleOf(text, 'queue_board_alert_firing{rule="huge backlog"}'), 0);
    const { asOf } = await source.boardStore.readAlertStatus();
    assert.equal(
      sampleOf(text, "queue_board_alert_evaluated_timestamp_seconds"),
      asOf! / 1000,
      "the firing counts say how old they are: when the leader evaluated them",
    );
    assert.equal(
      sampleOf(text, 'queue_board_alert_notices_total{sink="ops",outcome="delivered"}'),
      1,
    );
    assert.equal(
      sampleOf(text, 'queue_board_alert_notices_total{sink="broken",outcome="failed"}'),
      1,
    );
  } finally {
    await board.close();
    await source.close();
    await ok.close();
    await failing.close();
  }
});

Deno.test("/metrics counts the notices waiting for each sink, and those its full queue dropped", async () => {
  const hanging = hangingReceiver();
  const ok = webhookReceiver();
  const source = createMemorySource({ seed: readFixture() });
  const timers = new FakeTimers();
  // Told again on every pass: each pass brings each sink one notice per rule, fewer than a
  // queue takes, so only the sink that does not answer falls behind.
  const rules = Array.from({ length: 60 }, (_, i) => ({
    name: `mail failing ${i}`,
    kind: "failed" as const,
    tasks: ["send-email"],
    threshold: 4,
    repeat: "10s",
    sinks: ["hanging", "ops"],
  }));
  const passes = 4;
  const board = createBoardOn(timers, source, {
    alerts: {
      evaluateEvery: "10s",
      sinks: [
        { name: "hanging", type: "webhook", url: hanging.url, secret: SECRET, timeout: "1m" },
        { name: "ops", type: "webhook", url: ok.url, secret: SECRET },
      ],
      rules,
    },
    metrics: {},
  });
  const scrape = async () =>
    await (await board.fetch(new Request("http://board.test/board/metrics"))).text();
  try {
    for (let pass = 1; pass <= passes; pass++) {
      await timers.tick(10_000);
      await waitFor(() => ok.received.length === pass * rules.length, {
        what: `pass ${pass}'s notices at the sink that answers`,
      });
    }
    const text = await scrape();
    const waiting = SINK_QUEUE_SIZE + SINK_KEPT_SIZE;
    assert.equal(sampleOf(text, 'queue_board_alert_notices_queued{sink="hanging"}'), waiting);
    assert.equal(sampleOf(text, 'queue_board_alert_notices_queued{sink="ops"}'), 0);
    assert.equal(
      sampleOf(text, 'queue_board_alert_notices_dropped_total{sink="hanging"}'),
      passes * rules.length - SINK_CONCURRENCY - waiting,
    );
    assert.equal(sampleOf(text, 'queue_board_alert_notices_dropped_total{sink="ops"}'), undefined);
  } finally {
    await board.close();
    await source.close();
    await hanging.close();
    await ok.close();
  }
});

Deno.test("/metrics without alerts has no alert series", async () => {
  const source = createMemorySource({ seed: readFixture() });
  const board = createBoardOn(new FakeTimers(), source, { metrics: {} });
  try {
    const text = await (await board.fetch(new Request("http://board.test/board/metrics"))).text();
    assert.doesNotMatch(text, /queue_board_alert_firing\{/);
    assert.doesNotMatch(text, /queue_board_alert_evaluated_timestamp_seconds \d/);
  } finally {
    await board.close();
    await source.close();
  }
});
