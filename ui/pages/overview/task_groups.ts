/**
 * The task list grouped by name prefix (`billing.*`): a line per group with
 * its task count, its verdicts and its jobs per state added up; a group
 * opens to its own pages of tasks, read when opened.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { ErrorBanner } from "../../components/error_banner.ts";
import { PagedList } from "../../components/paged_list.ts";
import { Pagination } from "../../components/pagination.ts";
import { formatCount, formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { STATES } from "../../lib/types.ts";
import type { TaskGroup } from "../../../src/contract/task_list.ts";
import { HEALTH_TONE } from "./task_row.ts";
import { TaskTable } from "./task_table.ts";
import { PAGE_SIZE, pageQuery, type TaskView } from "./task_view.ts";
import { useOverviewPage } from "./use_overview.ts";

/** A group's name as shown: `billing.*`, `send-*`, or the task's own name for a group of one name. */
export function groupLabel(prefix: string): string {
  return /[.:/_-]$/.test(prefix) ? `${prefix}*` : prefix;
}

/** The tasks of one open group, a page at a time. */
function GroupTasks({ prefix, view }: { prefix: string; view: TaskView }) {
  const [page, setPage] = useState(1);
  const { data, error, loading } = useOverviewPage(pageQuery(view, page, prefix));
  return html`
    <${ErrorBanner} error=${error} />
    ${data
      ? html`
        <${PagedList} busy=${loading}>
          <${TaskTable} tasks=${data.tasks} />
          <${Pagination}
            offset=${data.offset}
            limit=${data.limit}
            total=${data.matched}
            onChange=${(offset: number) => setPage(offset / PAGE_SIZE + 1)}
          />
          <//>
      `
      : html`<p class="empty">Loading…</p>`}
  `;
}

/** One group: its line, and its tasks while open. */
function Group({ group, view }: { group: TaskGroup; view: TaskView }) {
  const [open, setOpen] = useState(false);
  const states = STATES.filter((state) => group.stats[state] > 0);
  return html`
    <section class="task-group">
      <button
        type="button"
        class="task-group-head"
        aria-expanded=${open}
        onClick=${() => setOpen(!open)}
      >
        <strong>${groupLabel(group.prefix)}</strong>
        <span class="muted">${formatCountOf(group.tasks, "task")}</span>
        ${(["critical", "warning"] as const).map((status) =>
          group.health[status]
            ? html`<span key=${status} class=${`health health-${HEALTH_TONE[status]}`}>${
              group.health[status]
            } ${status}</span>`
            : null
        )}
        <span class="task-group-counts">${states.map((state) =>
          html`<span key=${state}><span class=${`dot state-${state}`}></span>${
            formatCount(group.stats[state])
          } ${state}</span>`
        )}</span>
      </button>
      ${open ? html`<${GroupTasks} prefix=${group.prefix} view=${view} />` : null}
    </section>
  `;
}

/** The groups of one page of groups. */
export function TaskGroups(
  { groups, view, onChange }: {
    groups: readonly TaskGroup[];
    view: TaskView;
    onChange(change: Partial<TaskView>): void;
  },
) {
  if (groups.length === 0) return html`<p class="empty">No task matches.</p>`;
  const offset = (view.page - 1) * PAGE_SIZE;
  return html`
    <div class="task-groups">
      ${groups.slice(offset, offset + PAGE_SIZE).map((group) =>
        html`<${Group} key=${group.prefix} group=${group} view=${view} />`
      )}
    </div>
    <${Pagination}
      offset=${offset}
      limit=${PAGE_SIZE}
      total=${groups.length}
      onChange=${(next: number) => onChange({ page: next / PAGE_SIZE + 1 })}
    />
  `;
}
