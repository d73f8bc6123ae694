/**
 * The 24-hour throughput chart: completed and failed jobs per minute, from
 * `GET /throughput`. Drag across the chart to zoom into a span; double-click
 * to see the whole day again.
 *
 * @module
 */
import type uPlot from "uplot";
import { useMemo } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { type ChartOptions, themedAxis, UPlotChart } from "../../components/uplot_chart.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount, formatDateTime } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";

/** One minute of `GET /throughput`. */
export interface ThroughputBucket {
  timestamp: number;
  completed: number;
  failed: number;
}

const COMPLETED = "#10b981";
const FAILED = "#ef4444";

const OPTIONS: ChartOptions = {
  cursor: { drag: { x: true, y: false }, points: { size: 6 } },
  legend: { live: true },
  scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
  axes: [themedAxis(), themedAxis({ size: 48 })],
  series: [
    { value: (_u, ts) => ts == null ? "—" : formatDateTime(ts * 1000) },
    {
      label: "Completed",
      stroke: COMPLETED,
      fill: `${COMPLETED}22`,
      width: 1.5,
      value: (_u, n) => formatCount(n),
    },
    {
      label: "Failed",
      stroke: FAILED,
      fill: `${FAILED}22`,
      width: 1.5,
      value: (_u, n) => formatCount(n),
    },
  ],
};

/** The chart's columns: seconds (uPlot's time unit), completed, failed. */
function toColumns(buckets: readonly ThroughputBucket[]): uPlot.AlignedData {
  return [
    buckets.map((b) => b.timestamp / 1000),
    buckets.map((b) => b.completed),
    buckets.map((b) => b.failed),
  ];
}

function sum(buckets: readonly ThroughputBucket[], key: "completed" | "failed"): number {
  return buckets.reduce((total, bucket) => total + bucket[key], 0);
}

/** The throughput card of the overview. */
export function ThroughputCard() {
  const { api } = useBoard();
  // Minutes close once a minute; job events need not reload 1,440 buckets.
  const { data, error } = useLiveResource(
    (signal) => api.get<ThroughputBucket[]>("throughput", { signal }),
    [],
    { relevant: () => false },
  );
  const columns = useMemo(() => data ? toColumns(data) : null, [data]);
  const completed = data ? sum(data, "completed") : 0;
  const failed = data ? sum(data, "failed") : 0;
  const label = `Jobs finished per minute over the last 24 hours: ${
    formatCount(completed)
  } completed, ${formatCount(failed)} failed.`;
  return html`
    <${Card}
      title="Throughput, last 24 hours"
      actions=${data
        ? html`<span class="muted">
          <span class="dot state-completed"></span>${formatCount(completed)} completed
          <span class="dot state-failed throughput-gap"></span>${formatCount(failed)} failed
        </span>`
        : null}
    >
      ${columns
        ? html`
          <${UPlotChart} options=${OPTIONS} data=${columns} height=${220} label=${label} />
          <p class="chart-hint muted">Drag across the chart to zoom in; double-click to zoom out.</p>
        `
        : html`<p class="empty">${error ? error.message : "Loading…"}</p>`}
    <//>
  `;
}
