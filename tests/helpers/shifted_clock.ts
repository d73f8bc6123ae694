/**
 * The runtime's timers with a clock a test moves ahead: the board's
 * background work runs as it would, while what the board reads as "now"
 * (`epochClock`) is as far ahead as the test says. For a figure that depends
 * on how long nothing happened (no worker took a job for 6 min) with real
 * workers, whose locks and streams run on the real clock: ticking fake
 * timers that far would run every background pass in between.
 *
 * @module
 */

import { systemTimers, type Timers } from "../../src/timers.ts";

/**
 * Real timers whose `now()` is `ahead(ms)` further on.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { epochClock } from "../../src/timers.ts";
 * import { ShiftedClock } from "./shifted_clock.ts";
 * const timers = new ShiftedClock();
 * const clock = epochClock(timers);
 * timers.ahead(60_000);
 * assert.ok(clock() >= Date.now() + 59_000);
 * ```
 */
export class ShiftedClock implements Timers {
  #shift = 0;

  /** Moves the clock `ms` further ahead of the runtime's. */
  ahead(ms: number): void {
    this.#shift += ms;
  }

  now(): number {
    return systemTimers.now() + this.#shift;
  }

  setTimeout(callback: () => void, ms: number) {
    return systemTimers.setTimeout(callback, ms);
  }

  clearTimeout(id: ReturnType<Timers["setTimeout"]>): void {
    systemTimers.clearTimeout(id);
  }

  setInterval(callback: () => void, ms: number) {
    return systemTimers.setInterval(callback, ms);
  }

  clearInterval(id: ReturnType<Timers["setInterval"]>): void {
    systemTimers.clearInterval(id);
  }

  unref(id: ReturnType<Timers["setTimeout"]>): void {
    systemTimers.unref(id);
  }
}
