/**
 * One counter card per job state, from the overview totals; each opens the
 * jobs of its state: the DLQ for failed ones, else the task list sorted by
 * that state, whose cells open each task's tab.
 *
 * @module
 */
import { formatCompact, formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { Totals } from "../../lib/types.ts";

const ORDER: (keyof Totals)[] = [
  "waiting",
  "active",
  "delayed",
  "failed",
  "completed",
  "cancelled",
  "expired",
];

/** The row of state counters; `totals` null renders placeholders while loading. */
export function StateCounters({ totals }: { totals: Totals | null }) {
  return html`
    <ul class="counters" aria-label="Jobs by state">
      ${ORDER.map((state) =>
        html`
          <li key=${state} class=${`counter state-${state}`}>
            <a class="counter-link" href=${state === "failed" ? "dlq" : `tasks?state=${state}`}>
              <span class="counter-label">${state}</span>
              <span class="counter-value" title=${totals
                ? formatCount(totals[state])
                : undefined}>${totals ? formatCompact(totals[state]) : "—"}</span>
            </a>
          </li>
        `
      )}
    </ul>
  `;
}
