/**
 * A small seeded random source for the simulator, so a seeded run (a test)
 * produces the same jobs, ids and errors every time.
 *
 * @module
 */

/** A source of numbers in [0, 1), like `Math.random`. */
export type RandomFn = () => number;

/**
 * A seeded generator (mulberry32): fast, 32-bit state, good enough for a
 * workload demo. Not for anything secret.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const random = seededRandom(42);
 * assert.equal(random(), seededRandom(42)());
 * ```
 */
export function seededRandom(seed: number): RandomFn {
  let state = seed >>> 0;
  return function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Helpers drawing from one random source. */
export interface Dice {
  /** The underlying source. */
  random: RandomFn;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** One element, chosen with the given relative weights. */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** `n` hex characters. */
  hex(n: number): string;
  /** A version-4 UUID, like taskora's client-generated job ids. */
  uuid(): string;
}

/** Wraps a random source in the helpers the simulator uses. */
export function dice(random: RandomFn): Dice {
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const hex = (n: number) => {
    let out = "";
    for (let i = 0; i < n; i++) out += Math.floor(random() * 16).toString(16);
    return out;
  };
  return {
    random,
    chance: (p) => random() < p,
    int,
    pick: (items) => items[Math.floor(random() * items.length)],
    weighted(items) {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = random() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      return items[items.length - 1][0];
    },
    hex,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`,
  };
}
