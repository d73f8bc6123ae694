/**
 * The clock and timers a long-lived part of the board runs on, as one
 * injectable value: production uses the runtime's ({@link systemTimers}),
 * tests pass a fake one they move by hand instead of waiting.
 *
 * @module
 */

/** What {@link Timers.setTimeout} and {@link Timers.setInterval} return: the runtime's id, or a fake's. */
export type TimerId = number | ReturnType<typeof setTimeout>;

/** A clock and the timer functions of the runtime. */
export interface Timers {
  /** A monotonic clock, ms: only differences between two readings mean anything. */
  now(): number;
  /** Runs `callback` once after `ms`; returns the id {@link Timers.clearTimeout} takes. */
  setTimeout(callback: () => void, ms: number): TimerId;
  /** Cancels a timeout (an unknown or spent id is ignored). */
  clearTimeout(id: TimerId): void;
  /** Runs `callback` every `ms`; returns the id {@link Timers.clearInterval} takes. */
  setInterval(callback: () => void, ms: number): TimerId;
  /** Cancels an interval (an unknown id is ignored). */
  clearInterval(id: TimerId): void;
  /** Lets the process exit while this timer is pending (background work). */
  unref(id: TimerId): void;
}

/**
 * The runtime's own clock and timers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { systemTimers } from "./timers.ts";
 * let ran = false;
 * const id = systemTimers.setTimeout(() => ran = true, 0);
 * systemTimers.clearTimeout(id);
 * await new Promise((resolve) => setTimeout(resolve, 5));
 * assert.equal(ran, false);
 * ```
 */
export const systemTimers: Timers = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  setInterval: (callback, ms) => setInterval(callback, ms),
  clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
  unref: (id) => Deno.unrefTimer(id as number),
};

/**
 * A clock of ms since the epoch that moves with `timers`: `Date.now` for
 * the runtime's; for fake ones, the time they were made at plus how far
 * they were moved (what a test ticks, a sample's age follows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { epochClock, systemTimers } from "./timers.ts";
 * assert.equal(epochClock(systemTimers), Date.now);
 * ```
 */
export function epochClock(timers: Timers): () => number {
  if (timers === systemTimers) return Date.now;
  const start = Date.now() - timers.now();
  return () => start + timers.now();
}

/**
 * Waits for `work` at most `limitMs` on `timers`: whether it settled within
 * that time (it runs on either way; a rejection counts as settled).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { settledWithin, systemTimers } from "./timers.ts";
 * assert.equal(await settledWithin(systemTimers, Promise.resolve(), 1_000), true);
 * assert.equal(await settledWithin(systemTimers, new Promise(() => {}), 0), false);
 * ```
 */
export async function settledWithin(
  timers: Timers,
  work: Promise<unknown>,
  limitMs: number,
): Promise<boolean> {
  let timer: TimerId | undefined;
  const bound = new Promise<false>((resolve) =>
    timer = timers.setTimeout(() => resolve(false), limitMs)
  );
  const settled = work.then(() => true, () => true);
  try {
    return await Promise.race([settled, bound]);
  } finally {
    timers.clearTimeout(timer!);
  }
}

/**
 * Resolves after `ms` on `timers`, or at once when `signal` aborts (the
 * timer is then cleared); the timer never holds the process.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pauseOn, systemTimers } from "./timers.ts";
 * const stop = new AbortController();
 * const paused = pauseOn(systemTimers, 60_000, stop.signal);
 * stop.abort(); // a stop does not wait for the pause
 * assert.equal(await paused, undefined);
 * ```
 */
export function pauseOn(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      timers.clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = timers.setTimeout(done, ms);
    timers.unref(timer);
    signal?.addEventListener("abort", done);
  });
}
