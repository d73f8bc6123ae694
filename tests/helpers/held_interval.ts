/**
 * The runtime's timers, but for the intervals of one period, which never
 * fire by themselves: the test runs them when it says. For a browser test of
 * one periodic pass (the alert evaluator's) on a board whose other background
 * work (its lease, its stats frames, its event streams) runs on the real
 * clock, as an open page needs it to: fake timers would stop all of it, and
 * waiting for the pass on the wall clock cost each alerts test 5-20 s.
 *
 * @module
 */

import { systemTimers, type TimerId, type Timers } from "../../src/timers.ts";

/**
 * Real timers holding the intervals of `periodMs`. Give the board a period
 * no other part of it uses: {@link HeldInterval.run} fails unless exactly
 * one interval of it is held.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { HeldInterval } from "./held_interval.ts";
 * const timers = new HeldInterval(13_000);
 * let passes = 0;
 * const id = timers.setInterval(() => passes++, 13_000);
 * timers.run();
 * assert.equal(passes, 1);
 * timers.clearInterval(id);
 * assert.throws(() => timers.run(), /no interval of 13000 ms/);
 * ```
 */
export class HeldInterval implements Timers {
  readonly #periodMs: number;
  readonly #held = new Map<TimerId, () => void>();
  /** Held ids count down from -1: a runtime's timer id is never negative. */
  #nextId = -1;

  constructor(periodMs: number) {
    this.#periodMs = periodMs;
  }

  /** Runs the held interval's callback once, as its period coming round would. */
  run(): void {
    if (this.#held.size !== 1) {
      throw new Error(
        this.#held.size === 0
          ? `no interval of ${this.#periodMs} ms is held`
          : `${this.#held.size} intervals of ${this.#periodMs} ms are held: which one to run?`,
      );
    }
    const [callback] = this.#held.values();
    callback();
  }

  now(): number {
    return systemTimers.now();
  }

  setTimeout(callback: () => void, ms: number): TimerId {
    return systemTimers.setTimeout(callback, ms);
  }

  clearTimeout(id: TimerId): void {
    systemTimers.clearTimeout(id);
  }

  setInterval(callback: () => void, ms: number): TimerId {
    if (ms !== this.#periodMs) return systemTimers.setInterval(callback, ms);
    const id = this.#nextId--;
    this.#held.set(id, callback);
    return id;
  }

  clearInterval(id: TimerId): void {
    if (!this.#held.delete(id)) systemTimers.clearInterval(id);
  }

  unref(id: TimerId): void {
    // A held interval never holds the process.
    if (!this.#held.has(id)) systemTimers.unref(id);
  }
}
