/**
 * Durations as mergeable sketches: a DDSketch (`@datadog/sketches-js`) kept
 * as its bins, a map of bin key to count. Two sketches merge by adding their
 * counts, so an hour is exactly the sum of its minutes and a percentile is
 * read from the merge, never averaged.
 *
 * Why bins and not the library's own form: its `toProto()` is a blob no store
 * can add to in place, while bins are counters Redis (`HINCRBY`), PostgreSQL
 * (a JSONB sum) and memory all add in one write. The library still decides
 * the bins (its logarithmic mapping) and answers the quantiles.
 *
 * @module
 */

import { DDSketch } from "@datadog/sketches-js";

/** The sketch's relative accuracy: a p99 of 1,000 ms is read as 980–1,020 ms. */
export const RELATIVE_ACCURACY = 0.02;

/** A sketch's bins: bin key → how many durations fell in it. */
export type SketchBins = Record<string, number>;

const MAPPING = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY }).mapping;

/** The bin of durations too small to tell from zero. */
const ZERO_BIN = "z";

/**
 * The bin a duration (ms) falls in.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bins = { [binOf(1000)]: 99, [binOf(5000)]: 1 };
 * assert.ok(Math.abs(quantileOf(bins, 0.5)! - 1000) <= 20);
 * ```
 */
export function binOf(ms: number): string {
  return ms > MAPPING.minPossible ? String(MAPPING.key(ms)) : ZERO_BIN;
}

/** Adds `from`'s counts to `into`. */
export function mergeBins(into: SketchBins, from: Readonly<SketchBins>): SketchBins {
  for (const [bin, count] of Object.entries(from)) into[bin] = (into[bin] ?? 0) + count;
  return into;
}

/** The bins as a DDSketch, or null when they are empty. */
function sketchOf(bins: Readonly<SketchBins>): DDSketch | null {
  const sketch = new DDSketch({ relativeAccuracy: RELATIVE_ACCURACY });
  for (const [bin, count] of Object.entries(bins)) {
    if (count <= 0) continue;
    if (bin === ZERO_BIN) sketch.zeroCount += count;
    else sketch.store.add(Number(bin), count);
    sketch.count += count;
  }
  return sketch.count === 0 ? null : sketch;
}

/** `q`, refused unless it is between 0 and 1. */
function checkedQuantile(q: number): number {
  if (!(q >= 0 && q <= 1)) throw new RangeError(`a quantile is between 0 and 1, not ${q}`);
  return q;
}

/** The duration (ms) at quantile `q` (0–1) of the bins, or null when they are empty. */
export function quantileOf(bins: Readonly<SketchBins>, q: number): number | null {
  checkedQuantile(q);
  return sketchOf(bins)?.getValueAtQuantile(q) ?? null;
}

/**
 * The durations (ms) at each of `quantiles` (0–1), from one sketch of the
 * bins (a chart asks three of every bucket), or null when they are empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bins = { [binOf(100)]: 50, [binOf(900)]: 50 };
 * const [median, p99] = quantilesOf(bins, [0.5, 0.99])!;
 * assert.ok(Math.abs(median - 100) <= 2 && Math.abs(p99 - 900) <= 18);
 * assert.equal(quantilesOf({}, [0.5]), null);
 * ```
 */
export function quantilesOf(
  bins: Readonly<SketchBins>,
  quantiles: readonly number[],
): number[] | null {
  const checked = quantiles.map(checkedQuantile);
  const sketch = sketchOf(bins);
  return sketch && checked.map((q) => sketch.getValueAtQuantile(q));
}
