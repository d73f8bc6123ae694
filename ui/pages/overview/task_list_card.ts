/**
 * The task list as a card, for fleets of any size: the controls (filter,
 * order, groups), the health summary over every task, and one page of the
 * tasks (or of the groups), never every row at once.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { oldestAsOf, RetryingAsOf } from "../../components/retrying_as_of.ts";
import { Pagination } from "../../components/pagination.ts";
import { formatCount, formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { TaskListQuery } from "../../../src/contract/task_list.ts";
import { HealthSummary } from "./health_summary.ts";
import { TaskFilters } from "./task_filters.ts";
import { TaskGroups } from "./task_groups.ts";
import { TaskTable } from "./task_table.ts";
import { PAGE_SIZE, pageQuery, type TaskView } from "./task_view.ts";
import type { LiveOverview } from "./use_overview.ts";
import type { Placed } from "../../lib/api.ts";
import type { Overview } from "../../lib/types.ts";

/** What to ask `GET /overview` for the view: its page of tasks, or (grouped) its groups. */
export function overviewQuery(view: TaskView): TaskListQuery & { group?: "prefix" } {
  return view.group
    ? { q: view.q || undefined, health: view.health ?? undefined, group: "prefix", limit: 0 }
    : pageQuery(view, view.page);
}

/** How many tasks are listed: all of them, or how many of them match. */
function countLine(overview: LiveOverview, view: TaskView): string {
  const all = Object.values(overview.healthCounts).reduce((sum, n) => sum + n, 0);
  const filtered = view.q || view.health;
  return filtered
    ? `${formatCount(overview.matched)} of ${formatCountOf(all, "task")}`
    : formatCountOf(all, "task");
}

/**
 * The card. `counting`: the board answered that it is still reading every
 * task for the first time; the list says so until the rows come.
 */
export function TaskListCard(
  { title, overview, loading, counting, view, onChange }: {
    title: string;
    overview: LiveOverview<Placed<Overview>> | null;
    loading: boolean;
    counting: boolean;
    view: TaskView;
    onChange(change: Partial<TaskView>): void;
  },
) {
  const body = () => {
    if (counting && !overview) {
      return html`
        <p class="empty"
          role="status"><strong>Counting tasks…</strong> The board is reading every task for the first time; the list shows when it is done.</p>
      `;
    }
    if (!overview) return html`<p class="empty">${loading ? "Loading…" : "No data."}</p>`;
    if (overview.groups) {
      return html`<${TaskGroups} groups=${overview.groups} view=${view} onChange=${onChange} />`;
    }
    if (overview.tasks.length === 0 && overview.matched > 0) {
      return html`<p class="empty">No task on page ${view.page}. <button
        type="button"
        class="link-button"
        onClick=${() => onChange({ page: 1 })}
      >First page</button></p>`;
    }
    if (overview.matched === 0) {
      return html`<p class="empty">${
        view.q || view.health ? "No task matches." : "No tasks found in this store yet."
      }</p>`;
    }
    return html`
      <${TaskTable} tasks=${overview.tasks} />
      <${Pagination}
        offset=${overview.offset}
        limit=${overview.limit}
        total=${overview.matched}
        onChange=${(offset: number) => onChange({ page: offset / PAGE_SIZE + 1 })}
      />
    `;
  };
  return html`
    <${Card}
      title=${title}
      flush=${true}
      actions=${overview
        ? html`
          <${RetryingAsOf} what="retrying" at=${oldestAsOf(
            overview.tasks.map((t) => t.retryingAsOf),
          )} />
          <span class="muted task-count">${countLine(overview, view)}</span>
        `
        : null}
    >
      <div class="task-list-head">
        <${TaskFilters} view=${view} onChange=${onChange} />
        ${overview
          ? html`
            <${HealthSummary}
              counts=${overview.healthCounts}
              chosen=${view.health}
              onChoose=${(health: TaskView["health"]) => onChange({ health, page: 1 })}
            />
          `
          : null}
      </div>
      <div class="task-list-body paged-list" aria-busy=${loading}>${body()}</div>
      <//>
  `;
}
