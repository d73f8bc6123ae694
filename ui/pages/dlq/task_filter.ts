/**
 * The DLQ's task filter: a select of the tasks that have failed jobs, with
 * their failed counts as the event stream's stats frames give them. The
 * choice lives in the URL (`dlq?task=send-email`), so it can be linked.
 *
 * @module
 */
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { useOverview } from "../overview/use_overview.ts";

/** The task the DLQ is filtered to, read from the URL; null for every task. */
export function useTaskFilter(): [string | null, (task: string | null) => void] {
  const { router } = useBoard();
  const task = new URLSearchParams(router.search.value).get("task") || null;
  const choose = (next: string | null) =>
    router.navigate(next ? `/dlq?task=${encodeURIComponent(next)}` : "/dlq", { replace: true });
  return [task, choose];
}

/** The select; lists tasks with failed jobs (and the chosen one, even when it has none left). */
export function TaskFilter(
  { task, onChange }: { task: string | null; onChange(task: string | null): void },
) {
  const overview = useOverview();
  const failing = (overview.data?.tasks ?? []).filter((t) => t.stats.failed > 0);
  const known = failing.some((t) => t.name === task);
  return html`
    <label class="dlq-filter">
      <span class="muted">Task</span>
      <select
        class="select"
        value=${task ?? ""}
        onChange=${(e: Event) => onChange((e.currentTarget as HTMLSelectElement).value || null)}
      >
        <option value="">All tasks</option>
        ${failing.map((t) =>
          html`<option key=${t.name} value=${t.name}>${t.name} (${
            formatCount(t.stats.failed)
          })</option>`
        )}
        ${task && !known ? html`<option value=${task}>${task}</option>` : null}
      </select>
    </label>
  `;
}
