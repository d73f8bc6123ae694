/**
 * One sink's queue of notices: a few deliveries at once, the rest waiting
 * (bounded), what finds it full kept for the next pass (bounded too), and
 * only past both dropped, told as failed and counted. The deliveries here
 * are promises the test settles by hand: no clock, no receiver.
 */

import assert from "node:assert/strict";
import {
  SINK_CONCURRENCY,
  SINK_KEPT_SIZE,
  SINK_QUEUE_SIZE,
  SinkQueue,
} from "../../src/alerts/sink_queue.ts";
import { testNotice } from "../../src/alerts/notice.ts";
import type { AlertDelivery, AlertNotice } from "../../src/contract/alerts.ts";
import { settle } from "../helpers/fake_timers.ts";

/** A queue whose deliveries wait until the test delivers them, oldest first. */
function heldQueue() {
  const started: { notice: AlertNotice; done: (delivery: AlertDelivery) => void }[] = [];
  let dropped = 0;
  const queue = new SinkQueue(
    "ops",
    (notice) => new Promise((done) => started.push({ notice, done })),
    () => dropped++,
  );
  return {
    queue,
    started,
    dropped: () => dropped,
    /** Delivers the oldest delivery under way. */
    deliverOne: () =>
      started.shift()!.done({ sink: "ops", outcome: "delivered", attempts: 1, error: null }),
  };
}

const notice = (n: number) => testNotice(n, "");

Deno.test("a sink's queue posts a few notices at once and keeps the others waiting, in order", async () => {
  const { queue, started, deliverOne } = heldQueue();
  const outcomes = Array.from({ length: SINK_CONCURRENCY + 2 }, (_, n) => queue.offer(notice(n)));
  assert.equal(started.length, SINK_CONCURRENCY);
  assert.equal(queue.queued, 2);
  deliverOne();
  await settle();
  assert.deepEqual(started.map((s) => s.notice.at), [1, 2, 3, SINK_CONCURRENCY]);
  assert.equal((await outcomes[0]).outcome, "delivered");
  assert.equal(queue.queued, 1);
});

Deno.test("what finds the queue full waits for the next pass; what finds that full too is dropped, told failed", async () => {
  const { queue, started, dropped, deliverOne } = heldQueue();
  const room = SINK_CONCURRENCY + SINK_QUEUE_SIZE;
  const outcomes = Array.from(
    { length: room + SINK_KEPT_SIZE + 1 },
    (_, n) => queue.offer(notice(n)),
  );
  assert.equal(queue.queued, SINK_QUEUE_SIZE + SINK_KEPT_SIZE);
  assert.equal(dropped(), 1);
  assert.deepEqual(await outcomes.at(-1), {
    sink: "ops",
    outcome: "failed",
    attempts: 0,
    error: `dropped: ${SINK_QUEUE_SIZE + SINK_KEPT_SIZE} notices already wait for this sink`,
  });
  // A delivery that ends frees a place in the queue, not for what is kept: that waits for a pass.
  deliverOne();
  await settle();
  assert.equal(started.length, SINK_CONCURRENCY);
  assert.equal(queue.queued, SINK_QUEUE_SIZE - 1 + SINK_KEPT_SIZE);
  queue.nextPass();
  assert.equal(queue.queued, SINK_QUEUE_SIZE + SINK_KEPT_SIZE - 1, "one kept joined the queue");
  assert.equal(started.at(-1)!.notice.at, SINK_CONCURRENCY);

  queue.close();
  const closed = await Promise.all(outcomes.slice(room, -1));
  assert.ok(closed.every((delivery) => delivery.error === "the board closed"));
  assert.equal(queue.queued, 0);
  assert.deepEqual(await queue.offer(notice(0)), {
    sink: "ops",
    outcome: "failed",
    attempts: 0,
    error: "the board closed",
  });
});
