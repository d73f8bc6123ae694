/**
 * The Redis source's events: the live subscribers (one blocking reader for them all, and the
 * retrying split following while anyone does) and the change feed's tail.
 *
 * @module
 */

import type { EventBatch, TaskEvent } from "../../types.ts";
import type { RedisContext } from "../context.ts";

/** Events read from the tasks' streams. */
export class RedisEvents {
  readonly #redis: RedisContext;
  /** Live subscribers, and how to stop the split following events when the last leaves. */
  #subscribers = 0;
  #stopFollowing: (() => void) | null = null;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /**
   * Every event written to any task's stream from now on. All subscribers
   * share one blocking connection (a duplicate of the command client),
   * opened by the first and closed after the last; see `event_reader.ts`.
   */
  subscribe(listener: (event: TaskEvent) => void): () => void {
    const events = this.#redis.eventReader();
    if (this.#subscribers++ === 0) {
      // The split follows the events while (and only while) someone else does.
      const release = this.#redis.watch.hold();
      const releaseCounts = this.#redis.countsWatch.hold();
      this.#redis.split.following(true);
      const off = events.subscribe((event) => this.#redis.split.observe(event));
      this.#stopFollowing = () => {
        off();
        this.#redis.split.following(false);
        releaseCounts();
        release();
      };
    }
    const off = events.subscribe(listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      off();
      if (--this.#subscribers === 0) {
        this.#stopFollowing?.();
        this.#stopFollowing = null;
      }
    };
  }

  /**
   * Every task's stream from the given ids, a batch at a time, on a
   * blocking connection of its own (polled on a cluster); see
   * `RedisEventReader.tail`. While it runs, discovery and the retrying
   * reconcile do, as while a browser watches: a new task is read from its
   * first event.
   */
  async tailEvents(
    from: ReadonlyMap<string, string>,
    take: (batch: EventBatch) => Promise<void>,
    signal: AbortSignal,
  ): Promise<void> {
    const release = this.#redis.watch.hold();
    const releaseCounts = this.#redis.countsWatch.hold();
    try {
      await this.#redis.eventReader().tail(from, take, signal);
    } finally {
      releaseCounts();
      release();
    }
  }
}
