/**
 * A range picker for the history's charts: one pressed button among 1 h,
 * 6 h, 24 h, 7 d, 30 d and 90 d.
 *
 * @module
 */
import { html } from "../lib/html.ts";
import { HISTORY_RANGES, type HistoryRange } from "../../src/contract/history_charts.ts";

/** How a range reads in words, for the chart's title and the buttons' labels. */
export const RANGE_WORDS: Readonly<Record<HistoryRange, string>> = {
  "1h": "last hour",
  "6h": "last 6 hours",
  "24h": "last 24 hours",
  "7d": "last 7 days",
  "30d": "last 30 days",
  "90d": "last 90 days",
};

/** The buttons of every range, the chosen one pressed. */
export function RangePicker(
  { value, onChange }: { value: HistoryRange; onChange: (range: HistoryRange) => void },
) {
  return html`
    <div class="segmented range-picker" role="group" aria-label="Range">
      ${HISTORY_RANGES.map((range) =>
        html`
          <button
            key=${range}
            type="button"
            class="segmented-option"
            title=${RANGE_WORDS[range]}
            aria-pressed=${range === value ? "true" : "false"}
            onClick=${() => onChange(range)}
          >${range}</button>
        `
      )}
    </div>
  `;
}
