/**
 * The notices waiting for one sink, as Alertmanager gives each receiver its
 * own: a bounded queue with a few deliveries at once, so a sink that hangs
 * holds up its own notices only, never another sink's. What finds the
 * queue full is kept for the next pass (bounded too), and only what finds
 * that full as well is dropped: told as failed and counted, never lost
 * silently.
 *
 * @module
 */

import type { AlertDelivery, AlertNotice } from "../contract/alerts.ts";
import { CLOSED, notDelivered } from "./delivery.ts";

/** Deliveries to one sink at once at most (each with its own retries and backoff). */
export const SINK_CONCURRENCY = 4;
/** Notices waiting for one sink at most; one more is kept for the next pass. */
export const SINK_QUEUE_SIZE = 100;
/** Notices kept for one sink's next pass at most; one more is dropped. */
export const SINK_KEPT_SIZE = 100;

interface Waiting {
  notice: AlertNotice;
  settle: (delivery: AlertDelivery) => void;
}

/**
 * One sink's queue: {@link SinkQueue.offer} a notice, get what became of it
 * there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SinkQueue } from "./sink_queue.ts";
 * import { testNotice } from "./notice.ts";
 * const queue = new SinkQueue("ops", () =>
 *   Promise.resolve({ sink: "ops", outcome: "delivered", attempts: 1, error: null }));
 * const delivery = await queue.offer(testNotice(0, ""));
 * assert.equal(delivery.outcome, "delivered");
 * ```
 */
export class SinkQueue {
  /** The sink's name. */
  readonly name: string;
  readonly #deliver: (notice: AlertNotice) => Promise<AlertDelivery>;
  readonly #onDropped: () => void;
  readonly #waiting: Waiting[] = [];
  readonly #kept: Waiting[] = [];
  #running = 0;
  #closed = false;

  /**
   * The queue of the sink `name`, posting with `deliver`; `onDropped` is
   * told of each notice dropped (the `/metrics` counter).
   */
  constructor(
    name: string,
    deliver: (notice: AlertNotice) => Promise<AlertDelivery>,
    onDropped: () => void = () => {},
  ) {
    this.name = name;
    this.#deliver = deliver;
    this.#onDropped = onDropped;
  }

  /** Notices waiting for this sink now, those kept for the next pass included. */
  get queued(): number {
    return this.#waiting.length + this.#kept.length;
  }

  /** Queues `notice`; resolves once it is delivered, failed, dropped, or the board closed. */
  offer(notice: AlertNotice): Promise<AlertDelivery> {
    return new Promise((settle) => {
      if (this.#closed) return settle(notDelivered(this.name, CLOSED));
      if (this.#waiting.length < SINK_QUEUE_SIZE) {
        this.#waiting.push({ notice, settle });
        this.#start();
      } else if (this.#kept.length < SINK_KEPT_SIZE) {
        this.#kept.push({ notice, settle });
      } else {
        this.#onDropped();
        const waiting = SINK_QUEUE_SIZE + SINK_KEPT_SIZE;
        settle(notDelivered(this.name, `dropped: ${waiting} notices already wait for this sink`));
      }
    });
  }

  /** A new pass: what was kept for it joins the queue, ahead of the pass's own notices. */
  nextPass(): void {
    while (this.#kept.length > 0 && this.#waiting.length < SINK_QUEUE_SIZE) {
      this.#waiting.push(this.#kept.shift()!);
    }
    this.#start();
  }

  /**
   * Ends what waits, each kept as failed ("the board closed"); the
   * deliveries under way end by their own signal.
   */
  close(): void {
    this.#closed = true;
    for (const { settle } of this.#waiting.splice(0).concat(this.#kept.splice(0))) {
      settle(notDelivered(this.name, CLOSED));
    }
  }

  #start(): void {
    while (this.#running < SINK_CONCURRENCY && this.#waiting.length > 0) {
      const { notice, settle } = this.#waiting.shift()!;
      this.#running++;
      // A delivery reports its failures; one that throws still frees its place.
      this.#deliver(notice).catch(() => notDelivered(this.name, "delivery failed")).then(settle)
        .finally(() => {
          this.#running--;
          this.#start();
        });
    }
  }
}
