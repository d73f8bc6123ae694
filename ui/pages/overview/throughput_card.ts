/**
 * The 24-hour throughput chart: completed and failed jobs per minute, from
 * `GET /throughput`. Drag across the chart to zoom into a span (the header's
 * span and totals follow); double-click to see the whole day again. The
 * last bucket is the minute the counters were read in, still counting: it
 * is drawn dashed, as its own series, so a minute half over never reads as
 * a drop. When they were read (`X-As-Of`: up to about two minutes ago when
 * the day the board's leader keeps answered) is said under the chart.
 *
 * @module
 */
import type uPlot from "uplot";
import { useMemo, useRef, useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import {
  type ChartOptions,
  fitLabels,
  themeColor,
  themedAxis,
  UPlotChart,
} from "../../components/uplot_chart.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatClock, formatCount, formatDateTime, formatShortCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { sameDay, zonedFormat } from "../../lib/time_zone.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import type { ThroughputBucket } from "../../../src/contract/throughput.ts";

const COMPLETED = "#10b981";
const FAILED = "#ef4444";

/** A count of the closed minutes, or of the current one ("12 so far"), under the cursor. */
function countAt(u: uPlot, n: number | null, series: number, idx: number | null): string {
  const last = u.data[0].length - 1;
  return n == null && idx === last
    ? `${formatCount(u.data[series + 2][idx])} so far`
    : formatCount(n);
}

/** The current minute of a series: a dashed stub from the last closed minute, and a dot. */
function partial(stroke: string): uPlot.Series {
  return {
    label: "so far",
    class: "chart-partial",
    stroke,
    dash: [4, 4],
    width: 1.5,
    points: {
      show: true,
      size: 7,
      fill: () => themeColor("--surface"),
      filter: (u) => [u.data[0].length - 1],
    },
  };
}

/** Tick steps of the per-minute axis: 1, 2, 5 of each power of ten, up to 10M/min. */
const PER_MINUTE_STEPS = [1, 10, 100, 1e3, 1e4, 1e5, 1e6].flatMap((p) => [p, 2 * p, 5 * p])
  .concat(1e7);

const OPTIONS: ChartOptions = {
  cursor: { drag: { x: true, y: false }, points: { size: 6 } },
  legend: { live: true },
  scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
  axes: [
    themedAxis(),
    themedAxis({
      size: fitLabels,
      incrs: PER_MINUTE_STEPS,
      values: (_u, splits) => splits.map((n) => `${formatShortCount(n)}/min`),
    }),
  ],
  series: [
    { value: (_u, ts) => ts == null ? "—" : formatDateTime(ts * 1000) },
    { label: "Completed", stroke: COMPLETED, fill: `${COMPLETED}22`, width: 1.5, value: countAt },
    { label: "Failed", stroke: FAILED, fill: `${FAILED}22`, width: 1.5, value: countAt },
    partial(COMPLETED),
    partial(FAILED),
  ],
};

/**
 * The chart's columns: seconds (uPlot's time unit), completed and failed of
 * the closed minutes, then the same two for the current (last) minute only,
 * each from the last closed minute so the dashed stub joins the line.
 */
export function toColumns(buckets: readonly ThroughputBucket[]): uPlot.AlignedData {
  const last = buckets.length - 1;
  const closed = (key: "completed" | "failed") => buckets.map((b, i) => i === last ? null : b[key]);
  const current = (key: "completed" | "failed") =>
    buckets.map((b, i) => i >= last - 1 ? b[key] : null);
  return [
    buckets.map((b) => b.timestamp / 1000),
    closed("completed"),
    closed("failed"),
    current("completed"),
    current("failed"),
  ];
}

/** Completed and failed jobs of the buckets starting inside `[from, to]` (ms), or all of them. */
export function totalsIn(
  buckets: readonly ThroughputBucket[],
  range: readonly [number, number] | null,
): { completed: number; failed: number } {
  let completed = 0;
  let failed = 0;
  for (const b of buckets) {
    if (range && (b.timestamp < range[0] || b.timestamp > range[1])) continue;
    completed += b.completed;
    failed += b.failed;
  }
  return { completed, failed };
}

const SPAN_FIELDS: Intl.DateTimeFormatOptions = { hour: "2-digit", minute: "2-digit" };
const SPAN_DAY_FIELDS: Intl.DateTimeFormatOptions = {
  ...SPAN_FIELDS,
  month: "short",
  day: "numeric",
};

/** `13:05 – 13:40`, with the day when the span is not today's. */
function spanLabel([from, to]: readonly [number, number]): string {
  const now = Date.now();
  const at = (ms: number) =>
    zonedFormat(
      sameDay(ms, now) ? "span" : "span-day",
      sameDay(ms, now) ? SPAN_FIELDS : SPAN_DAY_FIELDS,
    )
      .format(ms);
  return `${at(from)} – ${at(to)}`;
}

/** The throughput card of the overview. */
export function ThroughputCard() {
  const { api } = useBoard();
  // Minutes close once a minute; job events need not reload 1,440 buckets.
  const { data: answer, error, counting } = useLiveResource(
    (signal) => api.getAsOf("/throughput", { signal }),
    [],
    { relevant: () => false },
  );
  const data = answer?.body ?? null;
  const columns = useMemo(() => data ? toColumns(data) : null, [data]);
  // The zoomed span (ms), or null for the whole day.
  const [zoom, setZoom] = useState<[number, number] | null>(null);
  const shown = useRef(data);
  shown.current = data;
  const onScale = (min: number, max: number) => {
    const buckets = shown.current ?? [];
    const whole = buckets.length === 0 ||
      (min * 1000 <= buckets[0].timestamp && max * 1000 >= buckets[buckets.length - 1].timestamp);
    setZoom(whole ? null : [min * 1000, max * 1000]);
  };

  const { completed, failed } = totalsIn(data ?? [], zoom);
  const span = zoom ? spanLabel(zoom) : "the last 24 hours";
  const label = `Jobs finished per minute, ${span}: ${formatCount(completed)} completed, ${
    formatCount(failed)
  } failed. The last minute, still counting when read, is dashed.`;
  return html`
    <${Card}
      title=${zoom ? `Throughput, ${span}` : "Throughput, last 24 hours"}
      actions=${data
        ? html`<span class="muted throughput-totals">
          <span class="dot state-completed"></span>${formatCount(completed)} completed
          <span class="dot state-failed throughput-gap"></span>${formatCount(failed)} failed
        </span>`
        : null}
    >
      ${columns
        ? html`
          <${UPlotChart}
            options=${OPTIONS}
            data=${columns}
            height=${220}
            label=${label}
            onScale=${onScale}
          />
          <p class="chart-hint muted">
            Drag across the chart to zoom in; double-click to zoom out. The last minute was still
            counting when the counters were read${answer?.asOf
              ? html`, at <span class="throughput-as-of">${formatClock(answer.asOf)}</span>`
              : ""}: it is drawn dashed.
          </p>
        `
        : html`<p class="empty">${
          error ? error.message : counting ? "Counting tasks…" : "Loading…"
        }</p>`}
    <//>
  `;
}
