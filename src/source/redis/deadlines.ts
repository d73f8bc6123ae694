/**
 * The command timeout of one Redis connection, kept by one timer for all
 * its batches in flight instead of a timer (and a racing promise) per
 * batch: arming, clearing and racing a timer per read cost more CPU than
 * the read itself in a served request.
 *
 * Every batch waits the same time, so the oldest one is always the first
 * due: the timer is armed for it, and when it fires it fails every batch
 * past its deadline and re-arms for the oldest left. A batch that ends
 * leaves the timer alone; a timer that finds nothing in flight is not
 * re-armed, so a steady stream of reads arms at most one timer per
 * timeout period.
 *
 * @module
 */

import { StoreUnavailableError } from "../../errors.ts";
import type { TimerId, Timers } from "../../timers.ts";

interface InFlight {
  /** When it fails, on the timers' clock. */
  due: number;
  fail: () => void;
}

/**
 * Bounds how long each batch of one connection may go unanswered.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CommandDeadlines } from "./deadlines.ts";
 * import { systemTimers } from "../../timers.ts";
 * const deadlines = new CommandDeadlines(systemTimers, 2000);
 * assert.equal(await deadlines.within(Promise.resolve(1), "Redis did not answer"), 1);
 * deadlines.close();
 * ```
 */
export class CommandDeadlines {
  readonly #timers: Timers;
  readonly #timeoutMs: number;
  /** In the order they started, which is the order they fall due. */
  readonly #inFlight = new Set<InFlight>();
  #timer: TimerId | undefined;

  /** Deadlines `timeoutMs` after each batch starts, kept on `timers`. */
  constructor(timers: Timers, timeoutMs: number) {
    this.#timers = timers;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Settles as `work` does, or rejects with {@link StoreUnavailableError}
   * ("`what` within N ms") once the timeout passes first. A `work` that
   * lost may still reject later; nobody awaits it.
   */
  within<T>(work: Promise<T>, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const entry: InFlight = {
        due: this.#timers.now() + this.#timeoutMs,
        fail: () => reject(new StoreUnavailableError(`${what} within ${this.#timeoutMs} ms`)),
      };
      this.#inFlight.add(entry);
      if (this.#timer === undefined) this.#arm(this.#timeoutMs);
      work.then(
        (value) => {
          this.#inFlight.delete(entry);
          resolve(value);
        },
        (error: unknown) => {
          this.#inFlight.delete(entry);
          reject(error);
        },
      );
    });
  }

  /** Stops the timer; batches still in flight are bounded no more (the connection is closing). */
  close(): void {
    if (this.#timer !== undefined) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #arm(ms: number): void {
    this.#timer = this.#timers.setTimeout(this.#expire, ms);
    // A batch in flight holds the process by its socket; the timer, which outlives the batches
    // it was armed for, must not hold it after them.
    this.#timers.unref(this.#timer);
  }

  #expire = (): void => {
    this.#timer = undefined;
    const now = this.#timers.now();
    for (const entry of this.#inFlight) {
      if (entry.due > now) return this.#arm(entry.due - now);
      this.#inFlight.delete(entry);
      entry.fail();
    }
  };
}
