/**
 * The version-distribution chart of one task: for each task version, one
 * bar per pending bucket (queue, delayed, retrying), side by side, drawn by
 * uPlot's bars path inside the shared {@link UPlotChart}. uPlot has no
 * grouped bars of its own, so each series is given its place within the
 * version's slot through the path's `disp` facets (left edge and width, as
 * fractions of the plot).
 *
 * @module
 */
import { useEffect, useMemo, useState } from "preact/hooks";
import type uPlot from "uplot";
import {
  type ChartOptions,
  themeColor,
  themedAxis,
  UPlotChart,
} from "../../components/uplot_chart.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** One bucket's bars: its label, the CSS variable of its colour, a count per version. */
export interface ChartSeries {
  label: string;
  color: string;
  counts: number[];
}

const HEIGHT = 150;
/** Share of a version's slot the group of bars takes; the rest is the gap between versions. */
const GROUP_WIDTH = 0.7;
/** Widest bar (CSS px), so that one lonely version does not draw a slab. */
const MAX_BAR_PX = 28;
/** Integer steps only: these are job counts. */
const COUNT_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 1e5, 1e6];

/**
 * uPlot itself, once its chunk has loaded: the bars path builder is needed
 * to write the options. The shared chart imports the same chunk, so this
 * is one download.
 */
function useUPlot(): typeof uPlot | null {
  const [lib, setLib] = useState<typeof uPlot | null>(null);
  useEffect(() => {
    let cancelled = false;
    import("uplot").then(({ default: loaded }) => {
      if (!cancelled) setLib(() => loaded);
    });
    return () => {
      cancelled = true;
    };
  }, []);
  return lib;
}

/** A `disp` layout giving series `s` of `count` its bar in every version's slot. */
function barLayout(s: number, count: number): uPlot.Series.BarsPathBuilderDisplay {
  const width = (u: uPlot) =>
    Math.min(
      GROUP_WIDTH / u.data[0].length / count,
      (MAX_BAR_PX * devicePixelRatio) / u.bbox.width,
    );
  return {
    x0: {
      unit: 2 as uPlot.Series.BarsPathBuilderFacetUnit.PixelPercent,
      values: (u) => {
        const bar = width(u);
        const slots = u.data[0].length;
        return Array.from(
          { length: slots },
          (_, i) => (i + 0.5) / slots - (count * bar) / 2 + s * bar,
        );
      },
    },
    size: {
      unit: 2 as uPlot.Series.BarsPathBuilderFacetUnit.PixelPercent,
      values: (u) => Array.from({ length: u.data[0].length }, () => width(u)),
    },
  };
}

function chartOptions(
  lib: typeof uPlot,
  versions: readonly number[],
  current: number,
  series: readonly Omit<ChartSeries, "counts">[],
): ChartOptions {
  const label = (i: number) =>
    versions[i] === current ? `v${versions[i]} (current)` : `v${versions[i]}`;
  return {
    legend: { show: false },
    cursor: { show: false },
    scales: {
      x: { time: false, range: [-0.5, versions.length - 0.5] },
      y: { range: (_u, _min, max) => [0, Math.max(2, Math.ceil(max * 1.15))] },
    },
    axes: [
      themedAxis({
        grid: { show: false },
        ticks: { show: false },
        size: 30,
        splits: () => versions.map((_, i) => i),
        values: (_u, splits) => splits.map(label),
      }),
      themedAxis({ ticks: { show: false }, incrs: COUNT_STEPS, size: 40 }),
    ],
    series: [
      {},
      ...series.map((s, i) => ({
        label: s.label,
        fill: () => themeColor(s.color),
        width: 0,
        paths: lib.paths.bars!({ radius: 0.15, disp: barLayout(i, series.length) }),
        points: { show: false },
        value: (_u: uPlot, n: number | null) => formatCount(n),
      })),
    ],
  };
}

/** The chart; `label` says what it shows (the numbers are in the table beside it). */
export function VersionChart(
  { versions, current, series, label }: {
    versions: number[];
    current: number;
    series: ChartSeries[];
    label: string;
  },
) {
  const lib = useUPlot();
  // Rebuilt only when the versions or buckets change; new counts go through setData.
  const shape = JSON.stringify({
    versions,
    current,
    series: series.map((s) => [s.label, s.color]),
  });
  const options = useMemo(() => lib && chartOptions(lib, versions, current, series), [lib, shape]);
  const data = useMemo<uPlot.AlignedData>(
    () => [versions.map((_, i) => i), ...series.map((s) => s.counts)],
    [JSON.stringify(series.map((s) => s.counts)), shape],
  );
  if (!options) return html`<div class="mig-chart" style=${{ minHeight: `${HEIGHT}px` }}></div>`;
  return html`
    <div class="mig-chart">
      <${UPlotChart} options=${options} data=${data} height=${HEIGHT} label=${label} />
    </div>
  `;
}
