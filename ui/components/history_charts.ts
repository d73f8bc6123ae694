/**
 * The history's charts with a range picker (1 h … 90 d): jobs finished per
 * bucket, the failure rate, and wait and run percentiles, of every task,
 * one task or one version of it (`GET /history/rollups`). The figures
 * follow the event stream: a stats frame whose finished counts moved
 * reloads them (at most every 10 s on minutes, every minute on coarser
 * buckets, since a bucket changes no faster), and the card says when they
 * were read. Shown only where the board records a history and the user
 * may read it.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import type uPlot from "uplot";
import { useMemo, useState } from "preact/hooks";
import { Card } from "./card.ts";
import { type ChartOptions, UPlotChart } from "./uplot_chart.ts";
import {
  DURATION_OPTIONS,
  durationColumns,
  FAILURE_RATE_OPTIONS,
  failureRateColumns,
  finishedColumns,
  finishedOptions,
} from "./history_chart_options.ts";
import { RANGE_WORDS, RangePicker } from "./range_picker.ts";
import { useBoard } from "../lib/board_context.ts";
import { currentTime } from "../lib/clock.ts";
import { formatClock, formatCount, formatElapsed, formatRelative } from "../lib/format.ts";
import { html } from "../lib/html.ts";
import { taskCounts } from "../lib/live.ts";
import { mayReadHistory } from "../lib/permissions.ts";
import { useLiveResource } from "../lib/use_live_resource.ts";
import type {
  HistoryFigures,
  HistoryRange,
  HistoryRollups,
} from "../../src/contract/history_charts.ts";

const CHART_HEIGHT = 180;

/** A failure rate in per cent, or `—`. */
export function formatRate(rate: number | null): string {
  return rate === null ? "—" : `${(rate * 100).toFixed(rate < 0.1 ? 1 : 0)}%`;
}

/** The range's totals, in the card's header: each figure kept on one line. */
function Totals({ totals }: { totals: HistoryFigures }) {
  return html`
    <span class="muted history-totals">
      <span><span class="dot state-completed"></span>${formatCount(
        totals.completed,
      )} completed</span>
      <span><span class="dot state-failed"></span>${formatCount(totals.failed)} failed</span>
      <span>${formatRate(totals.failureRate)} failed</span>
      ${totals.run ? html`<span>run p95 ${formatElapsed(totals.run.p95)}</span>` : null}
    </span>
  `;
}

/** One chart with its heading. */
function Chart(
  { title, options, data, label }: {
    title: string;
    options: ChartOptions;
    data: uPlot.AlignedData;
    label: string;
  },
) {
  return html`
    <figure class="history-chart">
      <figcaption class="history-chart-title">${title}</figcaption>
      <${UPlotChart} options=${options} data=${data} height=${CHART_HEIGHT} label=${label} />
    </figure>
  `;
}

/** The four charts of an answer. */
function Charts({ rollups }: { rollups: HistoryRollups }) {
  const { points, resolution, totals } = rollups;
  const finished = useMemo(() => finishedOptions(resolution), [resolution]);
  const columns = useMemo(() => ({
    finished: finishedColumns(points),
    rate: failureRateColumns(points),
    wait: durationColumns(points, "wait"),
    run: durationColumns(points, "run"),
  }), [points]);
  const span = RANGE_WORDS[rollups.range];
  return html`
    <div class="history-charts">
      <${Chart}
        title=${`Finished per ${resolution}`}
        options=${finished}
        data=${columns.finished}
        label=${`Jobs finished per ${resolution}, ${span}: ${
          formatCount(totals.completed)
        } completed, ${formatCount(totals.failed)} failed`}
      />
      <${Chart}
        title="Failure rate"
        options=${FAILURE_RATE_OPTIONS}
        data=${columns.rate}
        label=${`Failure rate per ${resolution}, ${span}: ${
          formatRate(totals.failureRate)
        } overall`}
      />
      <${Chart}
        title="Wait (created to first start)"
        options=${DURATION_OPTIONS}
        data=${columns.wait}
        label=${`Wait p50, p95 and p99 per ${resolution}, ${span}`}
      />
      <${Chart}
        title="Run time (every attempt)"
        options=${DURATION_OPTIONS}
        data=${columns.run}
        label=${`Run time p50, p95 and p99 per ${resolution}, ${span}`}
      />
    </div>
  `;
}

/** When the figures were read, and how long ago. */
function AsOf({ asOf }: { asOf: number }) {
  return html`
    <p class="chart-hint muted history-as-of">
      From the board's job history, read at ${formatClock(asOf)} (${formatRelative(
        asOf,
        currentTime(),
      )}); the last bucket was still counting.
    </p>
  `;
}

/**
 * The history card: `task` (and `version`) narrow it, `extra` goes beside
 * the range picker (the task page's version selector). Nothing where the
 * board records no history or the user may not read it.
 */
export function HistoryCharts(
  { task, version, extra }: { task?: string; version?: number; extra?: ComponentChildren },
) {
  const { config } = useBoard();
  if (!mayReadHistory(config)) return null;
  return html`<${ShownHistoryCharts} task=${task} version=${version} extra=${extra} />`;
}

function ShownHistoryCharts(
  { task, version, extra }: { task?: string; version?: number; extra?: ComponentChildren },
) {
  const { api } = useBoard();
  const [range, setRange] = useState<HistoryRange>("24h");
  const rollups = useLiveResource(
    (signal) => api.get("/history/rollups", { query: { task, version, range }, signal }),
    [task, version, range],
    {
      relevant: () => false,
      follows: (frame) => {
        const counts = task === undefined ? frame.totals : taskCounts(frame, task);
        return counts && [counts.completed, counts.failed];
      },
      minGap: range === "1h" || range === "6h" || range === "24h" ? 10_000 : 60_000,
    },
  );
  const data = rollups.data;
  return html`
    <${Card}
      title=${`History, ${RANGE_WORDS[range]}`}
      actions=${html`
        ${data ? html`<${Totals} totals=${data.totals} />` : null}
        ${extra}
        <${RangePicker} value=${range} onChange=${setRange} />
      `}
    >
      ${data
        ? html`
          <${Charts} rollups=${data} />
          <${AsOf} asOf=${data.asOf} />
        `
        : html`<p class="empty">${rollups.error ? rollups.error.message : "Loading…"}</p>`}
    <//>
  `;
}
