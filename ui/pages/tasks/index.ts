/**
 * The task list: every task with its health and per-state counts, each
 * linking to its own page. `?state=failed` (where an overview counter
 * leads) lists the tasks with the most jobs in that state first.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { stateFromSearch } from "../task/selected_state.ts";
import { TasksCard } from "../overview/task_table.ts";
import { useOverview } from "../overview/use_overview.ts";

/** The task list page. */
export function TasksPage() {
  const { data, error, loading } = useOverview();
  const state = stateFromSearch(useBoard().router.search.value);
  const tasks = data && state
    ? [...data.tasks].sort((a, b) => (b.stats?.[state] ?? 0) - (a.stats?.[state] ?? 0))
    : data?.tasks ?? null;
  return html`
    <${ErrorBanner} error=${error} />
    <${TasksCard}
      title=${state ? `Tasks by ${state} jobs` : "All tasks"}
      tasks=${tasks}
      loading=${loading}
    />
  `;
}
