/**
 * The history charts' uPlot options and columns: jobs finished per bucket,
 * the failure rate, and wait and run percentiles, each over a range's
 * buckets (`GET /history/rollups`). A bucket with no run has no percentile
 * or rate: a gap in the line, not a zero.
 *
 * @module
 */
import type uPlot from "uplot";
import { type ChartOptions, fitLabels, themedAxis } from "./uplot_chart.ts";
import { formatDateTime, formatElapsed, formatShortCount } from "../lib/format.ts";
import type {
  HistoryChartPoint,
  HistoryResolution,
  Percentiles,
} from "../../src/contract/history_charts.ts";

const COMPLETED = "#10b981";
const FAILED = "#ef4444";
/** p50, p95, p99: one hue, darker as the percentile rises. */
const PERCENTILE_COLOURS = ["#60a5fa", "#2563eb", "#1e3a8a"];

/** A bucket's length in words, for an axis: `/min`. */
const PER_BUCKET: Readonly<Record<HistoryResolution, string>> = {
  minute: "/min",
  hour: "/h",
  day: "/day",
};

const TIME_SERIES: uPlot.Series = {
  value: (_u, ts) => ts == null ? "—" : formatDateTime(ts * 1000),
};

const CURSOR: uPlot.Cursor = { drag: { x: false, y: false }, points: { size: 6 } };

/** From zero to a tenth above the highest value, so its dot is not cut at the top edge. */
function fromZero(least: number, most = Infinity): uPlot.Scale["range"] {
  return (_u, _min, max) => [0, Math.min(most, Math.max(least, max * 1.1))];
}

/**
 * The points of a series with no neighbour: a line needs two, so a bucket
 * alone between empty ones (one failure in a quiet day) is drawn as a dot.
 */
export function isolatedPoints(data: ArrayLike<number | null | undefined>): number[] {
  const isolated: number[] = [];
  for (let i = 0; i < data.length; i++) {
    if (data[i] != null && data[i - 1] == null && data[i + 1] == null) isolated.push(i);
  }
  return isolated;
}

function line(label: string, stroke: string, value: uPlot.Series["value"]): uPlot.Series {
  return {
    label,
    stroke,
    width: 1.5,
    value,
    points: {
      show: true,
      size: 5,
      fill: stroke,
      filter: (u, seriesIdx) => isolatedPoints(u.data[seriesIdx]),
    },
  };
}

/** Jobs completed and failed per bucket. */
export function finishedOptions(resolution: HistoryResolution): ChartOptions {
  const count: uPlot.Series["value"] = (_u, n) => n == null ? "—" : formatShortCount(n);
  return {
    cursor: CURSOR,
    scales: { x: { time: true }, y: { range: fromZero(1) } },
    axes: [
      themedAxis(),
      themedAxis({
        size: fitLabels,
        values: (_u, splits) =>
          splits.map((n) => `${formatShortCount(n)}${PER_BUCKET[resolution]}`),
      }),
    ],
    series: [
      TIME_SERIES,
      { ...line("Completed", COMPLETED, count), fill: `${COMPLETED}22` },
      { ...line("Failed", FAILED, count), fill: `${FAILED}22` },
    ],
  };
}

/** The share of runs that failed, in per cent. */
export const FAILURE_RATE_OPTIONS: ChartOptions = {
  cursor: CURSOR,
  scales: { x: { time: true }, y: { range: fromZero(5, 105) } },
  axes: [
    themedAxis(),
    themedAxis({ size: fitLabels, values: (_u, splits) => splits.map((n) => `${n}%`) }),
  ],
  series: [
    TIME_SERIES,
    line("Failure rate", FAILED, (_u, n) => n == null ? "—" : `${n.toFixed(1)}%`),
  ],
};

/** Three percentiles of a duration. */
export const DURATION_OPTIONS: ChartOptions = {
  cursor: CURSOR,
  scales: { x: { time: true }, y: { range: fromZero(1) } },
  axes: [
    themedAxis(),
    themedAxis({ size: fitLabels, values: (_u, splits) => splits.map(formatElapsed) }),
  ],
  series: [
    TIME_SERIES,
    ...["p50", "p95", "p99"].map((label, i) =>
      line(label, PERCENTILE_COLOURS[i], (_u, ms) => ms == null ? "—" : formatElapsed(ms))
    ),
  ],
};

/** uPlot's x column: seconds. */
function times(points: readonly HistoryChartPoint[]): number[] {
  return points.map((point) => point.at / 1000);
}

/** Completed and failed per bucket. */
export function finishedColumns(points: readonly HistoryChartPoint[]): uPlot.AlignedData {
  return [times(points), points.map((p) => p.completed), points.map((p) => p.failed)];
}

/** The failure rate per bucket, in per cent; none where nothing ended. */
export function failureRateColumns(points: readonly HistoryChartPoint[]): uPlot.AlignedData {
  return [
    times(points),
    points.map((p) => p.failureRate === null ? null : p.failureRate * 100),
  ];
}

/** p50, p95 and p99 of `which` per bucket; none where nothing ran. */
export function durationColumns(
  points: readonly HistoryChartPoint[],
  which: "wait" | "run",
): uPlot.AlignedData {
  const of = (key: keyof Percentiles) => points.map((p) => p[which]?.[key] ?? null);
  return [times(points), of("p50"), of("p95"), of("p99")];
}
