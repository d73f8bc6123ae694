/**
 * One counter card per job state, from the overview totals.
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
            <span class="counter-label">${state}</span>
            <span class="counter-value" title=${totals
              ? formatCount(totals[state])
              : undefined}>${totals ? formatCompact(totals[state]) : "—"}</span>
          </li>
        `
      )}
    </ul>
  `;
}
