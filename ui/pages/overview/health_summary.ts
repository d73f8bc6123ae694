/**
 * "3 critical, 12 warning": how many tasks have each verdict, over every
 * task. Each count is a toggle that filters the list to those tasks.
 *
 * @module
 */
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import {
  HEALTH_STATUSES,
  type HealthCounts,
  type HealthStatus,
} from "../../../src/contract/task_list.ts";
import { HEALTH_TONE } from "./task_row.ts";

/** The verdicts with tasks, each a filter; the chosen one pressed. */
export function HealthSummary(
  { counts, chosen, onChoose }: {
    counts: HealthCounts;
    chosen: HealthStatus | null;
    onChoose(status: HealthStatus | null): void;
  },
) {
  const shown = HEALTH_STATUSES.filter((status) => counts[status] > 0 || status === chosen);
  return html`
    <div class="health-summary" role="group" aria-label="Tasks by health">
      ${shown.map((status) =>
        html`
          <button
            key=${status}
            type="button"
            class=${`health-count health-${HEALTH_TONE[status]}`}
            aria-pressed=${status === chosen}
            onClick=${() => onChoose(status === chosen ? null : status)}
          >${formatCount(counts[status])} ${status}</button>
        `
      )}
    </div>
  `;
}
