/**
 * The task list: every task with its health and per-state counts, each
 * linking to its own page.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { html } from "../../lib/html.ts";
import { TasksCard } from "../overview/task_table.ts";
import { useOverview } from "../overview/use_overview.ts";

/** The task list page. */
export function TasksPage() {
  const { data, error, loading } = useOverview();
  return html`
    <${ErrorBanner} error=${error} />
    <${TasksCard} title="All tasks" tasks=${data?.tasks ?? null} loading=${loading} />
  `;
}
