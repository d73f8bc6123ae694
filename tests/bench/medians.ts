/**
 * The middle of a benchmark's samples, and what the benchmarks print with it.
 *
 * @module
 */

/** The middle of `values` (the upper of the two middles of an even count). */
export function median(values: readonly number[]): number {
  return values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
}

/** Sleeps `ms` of wall time: a benchmark waits out the board's own timers. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
