/**
 * What the history's charts show, from rollup buckets: the resolution and
 * window a range is read at, each bucket's figures, and a span's figures
 * with its percentiles read from the merge of its buckets' sketches (an
 * average of percentiles is no percentile).
 *
 * @module
 */

import type {
  HistoryChartPoint,
  HistoryFigures,
  HistoryRange,
  Percentiles,
} from "../contract/history_charts.ts";
import {
  bucketOf,
  MAX_ROLLUP_POINTS,
  pointOf,
  type Resolution,
  RESOLUTION_MS,
  RESOLUTIONS,
  ROLLUP_COUNTERS,
  ROLLUP_RETENTION_MS,
  type RollupPoint,
} from "./rollup.ts";
import { mergeBins, quantilesOf, type SketchBins } from "./sketch.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Each range's length, ms. */
export const RANGE_MS: Readonly<Record<HistoryRange, number>> = {
  "1h": HOUR,
  "6h": 6 * HOUR,
  "24h": DAY,
  "7d": 7 * DAY,
  "30d": 30 * DAY,
  "90d": 90 * DAY,
};

/** The span a chart reads: whole buckets, the last one holding `now`. */
export interface ChartWindow {
  /** The buckets' resolution. */
  resolution: Resolution;
  /** The first bucket's start, ms. */
  from: number;
  /** The end of the last bucket, ms. */
  to: number;
}

/**
 * The finest resolution still kept over `rangeMs` that covers it in at most
 * {@link MAX_ROLLUP_POINTS} buckets: minutes up to a day, hours up to 30
 * days, days beyond (90 days of hours would be 2,160 buckets).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(resolutionFor(RANGE_MS["24h"]), "minute");
 * assert.equal(resolutionFor(RANGE_MS["7d"]), "hour");
 * assert.equal(resolutionFor(RANGE_MS["90d"]), "day");
 * ```
 */
export function resolutionFor(rangeMs: number): Resolution {
  return RESOLUTIONS.find((resolution) =>
    rangeMs <= ROLLUP_RETENTION_MS[resolution] &&
    rangeMs / RESOLUTION_MS[resolution] <= MAX_ROLLUP_POINTS
  ) ?? "day";
}

/** The window of `rangeMs` at `resolution` that ends with the bucket holding `now`. */
export function windowAt(rangeMs: number, resolution: Resolution, now: number): ChartWindow {
  const to = bucketOf(now, resolution) + RESOLUTION_MS[resolution];
  return { resolution, from: to - rangeMs, to };
}

/** The window a chart of `range` reads at `now`. */
export function chartWindow(range: HistoryRange, now: number): ChartWindow {
  const rangeMs = RANGE_MS[range];
  return windowAt(rangeMs, resolutionFor(rangeMs), now);
}

/** p50, p95 and p99 of the bins, or null when they are empty. */
function percentilesOf(bins: Readonly<SketchBins>): Percentiles | null {
  const read = quantilesOf(bins, [0.5, 0.95, 0.99]);
  return read && { p50: read[0], p95: read[1], p99: read[2] };
}

/** The share of runs that ended that failed, or null when none ended. */
function failureRateOf(completed: number, failed: number): number | null {
  return completed + failed === 0 ? null : failed / (completed + failed);
}

/**
 * The figures of buckets taken together: their counters summed, their
 * sketches merged before any percentile is read.
 */
export function figuresOf(points: readonly RollupPoint[]): HistoryFigures {
  const counters = Object.fromEntries(ROLLUP_COUNTERS.map((counter) => [counter, 0])) as Record<
    typeof ROLLUP_COUNTERS[number],
    number
  >;
  const wait: SketchBins = {};
  const run: SketchBins = {};
  for (const point of points) {
    for (const counter of ROLLUP_COUNTERS) counters[counter] += point[counter];
    mergeBins(wait, point.wait);
    mergeBins(run, point.run);
  }
  return {
    ...counters,
    failureRate: failureRateOf(counters.completed, counters.failed),
    wait: percentilesOf(wait),
    run: percentilesOf(run),
  };
}

/**
 * Every bucket of the window, oldest first: the store's (which holds only
 * buckets something fell in) and zeros between, so a chart's line drops to
 * nothing where nothing ran rather than bridging the gap.
 */
export function chartPoints(
  points: readonly RollupPoint[],
  window: ChartWindow,
): HistoryChartPoint[] {
  const held = new Map(points.map((point) => [point.at, point]));
  const size = RESOLUTION_MS[window.resolution];
  const chart: HistoryChartPoint[] = [];
  for (let at = window.from; at < window.to; at += size) {
    const point = held.get(at);
    chart.push({ at, ...figuresOf(point ? [point] : []) });
  }
  return chart;
}

/** The points of `[from, to)`. */
export function pointsIn(
  points: readonly RollupPoint[],
  from: number,
  to: number,
): RollupPoint[] {
  return points.filter((point) => point.at >= from && point.at < to);
}

/**
 * The rollups of several scopes taken together (the tasks a user may read),
 * oldest first: each bucket's counters summed, its sketches merged, and no
 * backlog sample, as in the rollup of every task (samples are kept per task).
 */
export function mergedPoints(lists: readonly (readonly RollupPoint[])[]): RollupPoint[] {
  const byBucket = new Map<number, RollupPoint>();
  for (const point of lists.flat()) {
    let merged = byBucket.get(point.at);
    if (!merged) byBucket.set(point.at, merged = pointOf(point.at, {}));
    for (const counter of ROLLUP_COUNTERS) merged[counter] += point[counter];
    mergeBins(merged.wait, point.wait);
    mergeBins(merged.run, point.run);
  }
  return [...byBucket.values()].sort((a, b) => a.at - b.at);
}
