/**
 * A clock a test moves by hand: what `@std/testing/time`'s FakeTime does,
 * for the parts of the board that take their {@link Timers}. Nothing runs
 * until {@link FakeTimers.tick}; then every timer that falls due runs, in
 * order, at its own time.
 *
 * @module
 */

import type { TimerId, Timers } from "../../src/timers.ts";

interface Pending {
  at: number;
  callback: () => void;
  /** The period of an interval; undefined for a timeout. */
  every?: number;
}

/** Lets every promise that is ready settle (a macrotask turn: no wall-clock wait). */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Fake timers starting at 0 ms.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FakeTimers } from "./fake_timers.ts";
 * const timers = new FakeTimers();
 * const fired: number[] = [];
 * timers.setInterval(() => fired.push(timers.now()), 100);
 * await timers.tick(250);
 * assert.deepEqual(fired, [100, 200]);
 * ```
 */
export class FakeTimers implements Timers {
  #now = 0;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): number {
    return this.#add({ at: this.#now + Math.max(0, ms), callback });
  }

  clearTimeout(id: TimerId): void {
    this.#pending.delete(id as number);
  }

  setInterval(callback: () => void, ms: number): number {
    const every = Math.max(1, ms);
    return this.#add({ at: this.#now + every, callback, every });
  }

  clearInterval(id: TimerId): void {
    this.#pending.delete(id as number);
  }

  unref(_id: TimerId): void {
    // A fake timer never holds the process.
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.#pending.size;
  }

  /**
   * Moves the clock on by `ms`: each timer due by then runs at its own time,
   * earliest first, and what it started settles before the next one runs.
   */
  async tick(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await settle();
      const next = this.#due(end);
      if (next === null) break;
      const [id, timer] = next;
      this.#now = timer.at;
      if (timer.every === undefined) this.#pending.delete(id);
      else timer.at += timer.every;
      timer.callback();
    }
    this.#now = end;
    await settle();
  }

  #add(timer: Pending): number {
    const id = this.#nextId++;
    this.#pending.set(id, timer);
    return id;
  }

  /** The earliest timer due by `end` (the first set among equals). */
  #due(end: number): [number, Pending] | null {
    let found: [number, Pending] | null = null;
    for (const entry of this.#pending) {
      if (entry[1].at <= end && (found === null || entry[1].at < found[1].at)) found = entry;
    }
    return found;
  }
}
