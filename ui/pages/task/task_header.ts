/**
 * The top of the task page: the task's name, how many jobs and how much
 * Redis it holds, and its bulk actions (hidden on a read-only board).
 *
 * @module
 */
import { useState } from "preact/hooks";
import { useBoard } from "../../lib/board_context.ts";
import { formatBytes, formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { STATES } from "../../lib/types.ts";
import { CleanForm } from "./clean_form.ts";
import { RetryAllButton } from "./retry_all.ts";
import type { TaskStatsResponse } from "./types.ts";
import { may } from "../../lib/permissions.ts";

/** The header card; `onChanged` reloads counts and jobs after a bulk action. */
export function TaskHeader(
  { task, stats, onChanged }: {
    task: string;
    stats: TaskStatsResponse | null;
    onChanged(): void;
  },
) {
  const { config } = useBoard();
  const [cleaning, setCleaning] = useState(false);
  const summary = stats && [
    formatCountOf(STATES.reduce((sum, state) => sum + stats[state], 0), "job"),
    formatCountOf(stats.keyCount, "Redis key"),
    formatBytes(stats.memoryBytes),
  ].join(" · ");
  return html`
    <section class="card detail-head">
      <div class="detail-head-top">
        <div class="detail-title">
          <a class="back-link" href="tasks">← Tasks</a>
          <h2 class="task-name">${task}</h2>
          ${summary ? html`<p class="task-summary muted">${summary}</p>` : null}
        </div>
        ${config.readOnly || !stats ? null : html`
          <div class="detail-actions">
            ${may(config, "task.retry-all")
              ? html`<${RetryAllButton} task=${task} failed=${stats.failed} onDone=${onChanged} />`
              : null}
            ${may(config, "task.clean")
              ? html`
                <button
                  type="button"
                  class="btn"
                  aria-expanded=${cleaning ? "true" : "false"}
                  onClick=${() => setCleaning(!cleaning)}
                >Clean…</button>
              `
              : null}
          </div>
        `}
      </div>
      ${cleaning && may(config, "task.clean")
        ? html`<${CleanForm} task=${task} onDone=${onChanged} onClose=${() =>
          setCleaning(false)} />`
        : null}
    </section>
  `;
}
