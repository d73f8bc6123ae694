/**
 * One task of the task table: under its name its finished jobs per minute
 * over the last hour and how far its queue is behind (kept out of columns
 * of their own so the table still fits a wide screen), its health (and why,
 * in words), and one cell per job state, each count opening that state's tab
 * of the task.
 *
 * @module
 */
import { AlertMark } from "../../components/alert_mark.ts";
import { LongName } from "../../components/long_text.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { STATES, type TaskHealth } from "../../lib/types.ts";
import { QueueAge } from "./queue_age.ts";
import { RateSparkline } from "./sparkline.ts";
import type { OverviewTask } from "./use_overview.ts";

/** The badge colour of each verdict. */
export const HEALTH_TONE: Record<string, string> = {
  healthy: "ok",
  idle: "neutral",
  warning: "warn",
  critical: "bad",
};

/** A coloured health label; the reason shows on hover. */
export function HealthBadge({ health }: { health: TaskHealth | null | undefined }) {
  const status = health?.status ?? "unknown";
  return html`<span class=${`health health-${HEALTH_TONE[status] ?? "neutral"}`} title=${
    health?.reason || undefined
  }>${status}</span>`;
}

const taskHref = (name: string) => `tasks/${encodeURIComponent(name)}`;

/** The row of one task. */
export function TaskRow({ task }: { task: OverviewTask }) {
  return html`
    <tr>
      <th scope="row">
        <${LongName} name=${task.name} href=${taskHref(task.name)} />
        <${AlertMark} task=${task.name} />
        <div class="task-vitals">
          <${RateSparkline} rate=${task.rate} />
          <${QueueAge} latency=${task.latency} />
        </div>
      </th>
      <td class="health-cell">
        <${HealthBadge} health=${task.health} />
        <span class="health-reason muted">${task.health?.reason}</span>
      </td>
      ${STATES.map((s) => {
        const n = task.stats?.[s] ?? 0;
        return html`<td key=${s} class=${n ? "num" : "num zero"} data-label=${s}><a
          class="cell-link" href=${`${taskHref(task.name)}?state=${s}`}>${formatCount(n)}</a></td>`;
      })}
    </tr>
  `;
}
