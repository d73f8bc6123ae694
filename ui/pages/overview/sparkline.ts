/**
 * A task's finished jobs per minute over the last hour, as a tiny SVG: the
 * completed line, over the failed one when any failed (most minutes fail
 * none: the completed line stays readable where both are at zero).
 *
 * @module
 */
import type { TaskRate } from "../../../src/contract/latency.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

const WIDTH = 72;
const HEIGHT = 16;

/** SVG points of per-minute counts scaled to `max` (the top of the box). */
function points(counts: readonly number[], max: number): string {
  const step = counts.length > 1 ? WIDTH / (counts.length - 1) : 0;
  return counts.map((n, i) =>
    `${(i * step).toFixed(1)},${(HEIGHT - 1 - (n / max) * (HEIGHT - 2)).toFixed(1)}`
  ).join(" ");
}

/** The sparkline, with the hour's totals and the peak minute in its label. */
export function RateSparkline({ rate }: { rate: TaskRate | null | undefined }) {
  if (!rate) return html`<span class="muted">—</span>`;
  const total = rate.completed.map((n, i) => n + rate.failed[i]);
  const peak = Math.max(0, ...total);
  const completed = rate.completed.reduce((a, b) => a + b, 0);
  const failed = rate.failed.reduce((a, b) => a + b, 0);
  const label = `${formatCount(completed)} completed, ${
    formatCount(failed)
  } failed in the last ${rate.completed.length} min; peak ${formatCount(peak)}/min`;
  const max = Math.max(1, peak);
  return html`
    <svg
      class="sparkline"
      viewBox=${`0 0 ${WIDTH} ${HEIGHT}`}
      width=${WIDTH}
      height=${HEIGHT}
      role="img"
      aria-label=${label}
    ><title>${label}</title>${failed > 0
      ? html`<polyline class="spark-failed" points=${points(rate.failed, max)} />`
      : null}<polyline class="spark-completed" points=${points(rate.completed, max)} /></svg><span
      class="spark-peak muted">${formatCount(peak)}/min</span>
  `;
}
