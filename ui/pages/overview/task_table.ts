/**
 * The per-task table of the overview: under each task's name its finished
 * jobs per minute over the last hour and how far its queue is behind (kept
 * out of columns of their own so the table still fits a wide screen), its
 * health (and why, in words), and one column per job state, each count
 * opening that state's tab of the task.
 *
 * @module
 */
import { AlertMark } from "../../components/alert_mark.ts";
import { Card } from "../../components/card.ts";
import { RetryingAsOf } from "../../components/retrying_as_of.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { formatCount, formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { STATES, type TaskHealth } from "../../lib/types.ts";
import { QueueAge } from "./queue_age.ts";
import { RateSparkline } from "./sparkline.ts";
import type { OverviewTask } from "./use_overview.ts";

const HEALTH_TONE: Record<string, string> = {
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

/** The task table; links each task to its page. */
export function TaskTable({ tasks }: { tasks: readonly OverviewTask[] }) {
  if (tasks.length === 0) {
    return html`<p class="empty">No tasks found in this store yet.</p>`;
  }
  return html`
    <${ScrollArea}>
      <table class="table cards task-table">
        <thead>
          <tr>
            <th scope="col">Task</th>
            <th scope="col">Health</th>
            ${STATES.map((s) =>
              html`<th key=${s} scope="col" class="num"><span class=${`dot state-${s}`}></span>${s}</th>`
            )}
          </tr>
        </thead>
        <tbody>
          ${tasks.map((task) =>
            html`
              <tr key=${task.name}>
                <th scope="row">
                  <a class="task-link" href=${taskHref(task.name)}>${task.name}</a>
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
                    class="cell-link" href=${`${taskHref(task.name)}?state=${s}`}>${
                    formatCount(n)
                  }</a>${
                    s === "retrying" ? html`<${RetryingAsOf} at=${task.retryingAsOf} />` : null
                  }</td>`;
                })}
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}

/** The task table in a card, with the task count, or a loading/empty notice. */
export function TasksCard(
  { title, tasks, loading }: {
    title: string;
    tasks: readonly OverviewTask[] | null;
    loading: boolean;
  },
) {
  return html`
    <${Card}
      title=${title}
      flush=${true}
      actions=${tasks
        ? html`<span class="muted">${formatCountOf(tasks.length, "task")}</span>`
        : null}
    >
      ${tasks
        ? html`<${TaskTable} tasks=${tasks} />`
        : html`<p class="empty">${loading ? "Loading…" : "No data."}</p>`}
    <//>
  `;
}
