/**
 * The task list: every task with its health and per-state counts, a page at
 * a time, filtered, ordered and grouped as its URL says (`?q=billing`,
 * `?sort=failed`, see `overview/task_view.ts`). `?state=failed` (where an
 * overview counter leads) lists the tasks with the most jobs in that state
 * first.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { html } from "../../lib/html.ts";
import { overviewQuery, TaskListCard } from "../overview/task_list_card.ts";
import { useTaskView } from "../overview/task_view.ts";
import { useOverviewPage } from "../overview/use_overview.ts";
import { STATES } from "../../lib/types.ts";

/** The task list page. */
export function TasksPage() {
  const [view, changeView] = useTaskView();
  const { data, error, loading, counting } = useOverviewPage(overviewQuery(view));
  const byState = (STATES as readonly string[]).includes(view.sort);
  return html`
    <${ErrorBanner} error=${error} />
    <${TaskListCard}
      title=${byState ? `Tasks by ${view.sort} jobs` : "All tasks"}
      overview=${data}
      loading=${loading}
      counting=${counting}
      view=${view}
      onChange=${changeView}
    />
  `;
}
