/**
 * The middle of a benchmark's samples, and what the benchmarks print with it.
 *
 * @module
 */

/** The sample at fraction `q` (0–1) of `values` sorted, by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** The middle of `values` (the upper of the two middles of an even count). */
export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** `median (min, quartiles, max)` of `values`, each with `digits` decimals: how far they spread. */
export function spreadOf(values: readonly number[], digits = 2): string {
  const [min, q1, mid, q3, max] = [0, 0.25, 0.5, 0.75, 1].map((q) =>
    quantile(values, q).toFixed(digits)
  );
  return `${mid} (min ${min}, quartiles ${q1}–${q3}, max ${max})`;
}

/** Sleeps `ms` of wall time: a benchmark waits out the board's own timers. */
export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));
