/**
 * The migrations page: for every task, which versions its pending jobs
 * (waiting, active, delayed, retrying) were dispatched with, and whether
 * its `since` can be raised without stranding any of them. Tasks with
 * pending jobs get a card with a chart; the others one line each.
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { Overview } from "../../lib/types.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { MigrationCard, SinceValue } from "./migration_card.ts";
import { type Migrations, pendingTotal } from "./types.ts";
import { isFullySafe } from "./verdict.ts";

interface TaskMigrations {
  task: string;
  migrations: Migrations;
}

function DrainedTasks({ tasks }: { tasks: TaskMigrations[] }) {
  return html`
    <${Card}
      title="Tasks with no pending jobs"
      actions=${html`<span class="muted">${formatCount(tasks.length)} tasks</span>`}
      flush=${true}
    >
      <ul class="mig-drained">
        ${tasks.map(({ task, migrations: m }) =>
          html`
            <li key=${task}>
              <a class="task-link mig-drained-name" href=${href("tasks", task)}>${task}</a>
              <span class="mig-drained-version">v${m.version}</span>
              <span class="muted">since <${SinceValue} since=${m.since} /></span>
              <span class="mig-drained-verdict">
                No pending jobs: safe to raise <code>since</code> up to v${m.version}.
              </span>
            </li>
          `
        )}
      </ul>
      <//>
  `;
}

/** Blocked tasks first (they need attention), then by how many jobs are pending. */
function byUrgency(a: TaskMigrations, b: TaskMigrations): number {
  const blocked = Number(isFullySafe(a.migrations)) - Number(isFullySafe(b.migrations));
  return blocked || pendingTotal(b.migrations) - pendingTotal(a.migrations);
}

/** The migrations page. */
export function MigrationsPage() {
  const { api } = useBoard();
  const { data, error, loading } = useLiveResource(
    async (signal): Promise<TaskMigrations[]> => {
      const overview = await api.get<Overview>("overview", { signal });
      return await Promise.all(overview.tasks.map(async ({ name }) => ({
        task: name,
        migrations: await api.get<Migrations>(
          `tasks/${encodeURIComponent(name)}/migrations`,
          { signal },
        ),
      })));
    },
    [],
    // One request per task: refresh on the backstop timer, not on every job event.
    { relevant: () => false },
  );

  if (data === null) {
    return html`
      <${ErrorBanner} error=${error} />
      <p class="empty">${loading ? "Loading…" : "No data."}</p>
    `;
  }
  const pending = data.filter((t) => pendingTotal(t.migrations) > 0).sort(byUrgency);
  const drained = data.filter((t) => pendingTotal(t.migrations) === 0);
  return html`
    <${ErrorBanner} error=${error} />
    ${data.length === 0 ? html`<p class="empty">No tasks found in this store yet.</p>` : null}
    ${pending.map((t) => html`<${MigrationCard} key=${t.task} ...${t} />`)}
    ${drained.length ? html`<${DrainedTasks} tasks=${drained} />` : null}
  `;
}
