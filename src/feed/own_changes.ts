/**
 * A board's own changes and the live state: after this board changed the
 * queue (a retry, a clean, a bulk step), its answers do not come from a live
 * state the leader wrote before the change ended, so whoever made the change
 * sees it in the next overview; a request that changed nothing (a preflight,
 * a refused mutation) leaves the live state in use. Other replicas see it
 * with the leader's next pass, as they see taskora's own changes.
 *
 * @module
 */

import type { MiddlewareHandler } from "hono";

/** The task a request's path names: `.../tasks/<task>/...`. */
const TASK_PATH = /\/tasks\/([^/]+)(?:\/|$)/;

/** The methods that change nothing: reads, and the CORS preflight. */
const CHANGE_NOTHING = new Set(["GET", "HEAD", "OPTIONS"]);

/** When this board last finished a change, on the clock the live state's `asOf` uses. */
export class OwnChanges {
  readonly #clock: () => number;
  readonly #onChange: (task?: string) => void;
  #at = -Infinity;

  /**
   * `clock`: ms since the epoch, as the live state's `asOf`; `onChange`
   * hears each change, with the task it named.
   */
  constructor(clock: () => number, onChange: (task?: string) => void = () => {}) {
    this.#clock = clock;
    this.#onChange = onChange;
  }

  /** Whether a live state of `asOf` was written after this board's last change. */
  seenBy(asOf: number): boolean {
    return asOf > this.#at;
  }

  /**
   * Marks a change this board made outside a request (a bulk operation's
   * steps end after its `POST` answered): the answers after it do not come
   * from a live state written before it; `task`, when one is named, is
   * re-read at the leader's next pass, which leaves no task's events
   * waiting (`live_state.ts`), so that its `asOf` is after the change.
   */
  changed(task?: string): void {
    this.#at = this.#clock();
    this.#onChange(task);
  }

  /**
   * Marks every request that may have changed the queue, when it ends, and
   * tells the `onChange` given at construction the task its path names
   * (`/tasks/<task>/...`): a clean writes no event, so the live state
   * re-reads that task rather than wait for its sweep. A read, a preflight
   * and a request refused with a 4xx changed nothing: the next answers stay
   * on the live state. One that failed otherwise (a 5xx, an outcome unknown)
   * may have changed something and is marked.
   */
  middleware(): MiddlewareHandler {
    return async (c, next) => {
      if (CHANGE_NOTHING.has(c.req.method)) return await next();
      let refused = false;
      try {
        await next();
        refused = c.res.status >= 400 && c.res.status < 500;
      } finally {
        if (!refused) {
          const named = TASK_PATH.exec(new URL(c.req.url).pathname)?.[1];
          this.changed(named === undefined ? undefined : decodeURIComponent(named));
        }
      }
    };
  }
}
