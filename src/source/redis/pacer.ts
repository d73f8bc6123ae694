/**
 * A hard budget of Redis commands per second for the source's background
 * work (discovery SCANs, the retrying reconcile), so that what the board
 * costs Redis does not grow with the keyspace.
 *
 * @module
 */

/** Resolves after `ms`, or at once when `signal` aborts. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}

/**
 * A token bucket of `perSecond` commands that holds at most one second of
 * them: work that spends faster than `perSecond` is made to wait, so over
 * any window of t seconds at most `perSecond × (t + 1)` commands are spent.
 * A spend larger than the bucket (a script call that looks at more keys than
 * a second's worth) is allowed and repaid before the next one goes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Pacer } from "./pacer.ts";
 * const pacer = new Pacer(200);
 * await pacer.take(1); // at once: the bucket starts full
 * assert.deepEqual(pacer.spent, 1);
 * ```
 */
export class Pacer {
  /** The budget, commands per second. */
  readonly perSecond: number;
  #tokens: number;
  #at: number;
  #spent = 0;
  #waited = 0;
  #queue: Promise<void> = Promise.resolve();

  /** Creates a pacer whose bucket starts full. */
  constructor(perSecond: number) {
    if (!(perSecond > 0)) throw new RangeError(`perSecond must be positive (got ${perSecond})`);
    this.perSecond = perSecond;
    this.#tokens = perSecond;
    this.#at = performance.now();
  }

  /** Commands spent so far. */
  get spent(): number {
    return this.#spent;
  }

  /** Milliseconds callers have waited for the budget so far. */
  get waited(): number {
    return this.#waited;
  }

  /**
   * Waits until the budget allows `cost` more commands (callers are served
   * in order), then spends them. Resolves at once, spending nothing, when
   * `signal` has aborted.
   */
  take(cost: number, signal?: AbortSignal): Promise<void> {
    const turn = this.#queue.then(async () => {
      if (signal?.aborted) return;
      this.#refill();
      // Wait until the bucket is not in debt and holds what it can hold of the cost.
      const need = Math.min(cost, this.perSecond) - this.#tokens;
      if (need > 0) {
        const ms = (need / this.perSecond) * 1000;
        const started = performance.now();
        await pause(ms, signal);
        this.#waited += performance.now() - started;
        if (signal?.aborted) return;
        this.#refill();
      }
      this.#tokens -= cost;
      this.#spent += cost;
    });
    this.#queue = turn;
    return turn;
  }

  /** Spends `cost` commands already sent (a reply bigger than asked for): the next take repays them. */
  charge(cost: number): void {
    this.#refill();
    this.#tokens -= cost;
    this.#spent += cost;
  }

  #refill(): void {
    const now = performance.now();
    this.#tokens = Math.min(
      this.perSecond,
      this.#tokens + ((now - this.#at) / 1000) * this.perSecond,
    );
    this.#at = now;
  }
}
