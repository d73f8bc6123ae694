/**
 * A board's own changes and the live state: after this board changed the
 * queue (a retry, a clean, a bulk step), its answers do not come from a live
 * state the leader wrote before the change ended, so whoever made the change
 * sees it in the next overview. Other replicas see it with the leader's next
 * pass, as they see taskora's own changes.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";

/** When this board last finished a change, on the clock the live state's `asOf` uses. */
export class OwnChanges {
  readonly #clock: () => number;
  #at = -Infinity;

  /** `clock`: ms since the epoch, as the live state's `asOf`. */
  constructor(clock: () => number) {
    this.#clock = clock;
  }

  /** Whether a live state of `asOf` was written after this board's last change. */
  seenBy(asOf: number): boolean {
    return asOf > this.#at;
  }

  /** Marks every request that may change the queue, when it ends. */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      try {
        await next();
      } finally {
        if (c.req.method !== "GET" && c.req.method !== "HEAD") this.#at = this.#clock();
      }
    };
  }
}
