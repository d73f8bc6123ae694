/**
 * How a task's wait or run times spread: one bar per bin of
 * `HISTOGRAM_BOUNDS_MS` (log-spaced, 10 ms to over an hour), as plain SVG
 * (attributes, no inline styles: the board's CSP allows none).
 *
 * @module
 */
import { type DurationSummary, HISTOGRAM_BOUNDS_MS } from "../../../src/contract/latency.ts";
import { formatCountOf, formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

const BAR = 10;
const GAP = 2;
const HEIGHT = 48;
/** The bins whose bound is named under the axis. */
const LABELS = new Map([[1_000, "1 s"], [60_000, "1 min"], [3_600_000, "1 h"]]);

/** `≤ 250 ms`, `> 1h`: what one bin holds. */
export function binLabel(index: number): string {
  const bound = HISTOGRAM_BOUNDS_MS[index];
  return bound === undefined
    ? `> ${formatElapsed(HISTOGRAM_BOUNDS_MS[HISTOGRAM_BOUNDS_MS.length - 1])}`
    : `≤ ${formatElapsed(bound)}`;
}

/** The histogram of one summary, with its bins named on hover and for screen readers. */
export function LatencyHistogram({ summary, label }: { summary: DurationSummary; label: string }) {
  const max = Math.max(1, ...summary.histogram);
  const width = summary.histogram.length * (BAR + GAP) - GAP;
  return html`
    <svg
      class="latency-histogram"
      viewBox=${`0 0 ${width} ${HEIGHT + 12}`}
      role="img"
      aria-label=${`${label}: ${
        summary.histogram.map((n, i) => n > 0 ? `${binLabel(i)} ${n}` : "").filter(Boolean).join(
          ", ",
        )
      }`}
    >
        <line class="axis" x1="0" x2=${width} y1=${HEIGHT + 0.5} y2=${HEIGHT + 0.5} />
        ${summary.histogram.map((n, i) => {
          const h = n === 0 ? 0 : Math.max(1.5, (n / max) * HEIGHT);
          const x = i * (BAR + GAP);
          return html`<g key=${i}>
        <title>${binLabel(i)}: ${formatCountOf(n, "job")}</title>
        <rect class="bin-hit" x=${x} y="0" width=${BAR + GAP} height=${HEIGHT} />
        <rect class="bin" x=${x} y=${HEIGHT - h} width=${BAR} height=${h} />
        ${
            LABELS.has(HISTOGRAM_BOUNDS_MS[i])
              ? html`<text x=${x + BAR} y=${HEIGHT + 10} text-anchor="middle">${
                LABELS.get(HISTOGRAM_BOUNDS_MS[i])
              }</text>`
              : null
          }
      </g>`;
        })}
      </svg>
  `;
}
