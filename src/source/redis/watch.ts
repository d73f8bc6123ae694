/**
 * Whether anyone is looking at the board, so background work runs only
 * then: an idle board (no browser open, no API calls) costs Redis nothing.
 *
 * @module
 */

/**
 * Watched means: a live subscriber is held ({@link Watch.hold}, the SSE
 * stream), or a request came within `idleAfterMs` ({@link Watch.touch}).
 * Background loops ask {@link Watch.watched} before scheduling their next
 * run, and register with {@link Watch.onWake} to be restarted when an idle
 * board is looked at again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Watch } from "./watch.ts";
 * const watch = new Watch(60_000);
 * watch.onWake(() => console.log("someone looks again"));
 * watch.touch(); // logs, then the board counts as watched for a minute
 * assert.deepEqual(watch.watched, true);
 * ```
 */
export class Watch {
  /** How long a request keeps the board watched, ms. */
  readonly idleAfterMs: number;
  #lastSeen = -Infinity;
  #holds = 0;
  readonly #wakers = new Set<() => void>();
  readonly #now: () => number;

  /** Creates an unwatched watch; `now` is its monotonic clock, ms (tests pass a fake one). */
  constructor(idleAfterMs = 60_000, now: () => number = () => performance.now()) {
    this.idleAfterMs = idleAfterMs;
    this.#now = now;
  }

  /** Whether someone looks at the board now. */
  get watched(): boolean {
    return this.#holds > 0 || this.#now() - this.#lastSeen < this.idleAfterMs;
  }

  /** A request came: the board is watched for `idleAfterMs` more. */
  touch(): void {
    const was = this.watched;
    this.#lastSeen = this.#now();
    if (!was) this.#wake();
  }

  /** A live subscriber came: the board is watched until the returned release is called. */
  hold(): () => void {
    const was = this.watched;
    this.#holds++;
    if (!was) this.#wake();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#holds--;
      // The subscriber just left: it counts as a request seen now.
      this.#lastSeen = this.#now();
    };
  }

  /** Calls `listener` each time an unwatched board becomes watched; returns the unsubscribe. */
  onWake(listener: () => void): () => void {
    this.#wakers.add(listener);
    return () => this.#wakers.delete(listener);
  }

  #wake(): void {
    for (const waker of this.#wakers) waker();
  }
}
