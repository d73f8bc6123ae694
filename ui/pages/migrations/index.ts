/**
 * The migrations page: for every task, which versions its pending jobs
 * (waiting, active, delayed, retrying) were dispatched with, and whether
 * its `since` can be raised without stranding any of them. Tasks with
 * pending jobs get a card with a chart; the others one line each.
 *
 * It follows the stream's stats frames: when a task's pending counts move,
 * that task (and only that one: counting versions reads every pending job)
 * is asked again.
 *
 * @module
 */
import { useRef } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { TaskStats } from "../../lib/types.ts";
import { BACKSTOP_FACTOR, useLiveResource } from "../../lib/use_live_resource.ts";
import { MigrationCard, SinceValue } from "./migration_card.ts";
import { type Migrations, pendingTotal } from "./types.ts";
import { isFullySafe } from "./verdict.ts";

interface TaskMigrations {
  task: string;
  migrations: Migrations;
}

/** The counts a task's answer depends on: its jobs yet to run. */
function pendingCounts(stats: TaskStats): string {
  return `${stats.waiting},${stats.active},${stats.delayed},${stats.retrying}`;
}

/** A task's answer, the pending counts it was read at, and when. */
interface Known {
  counts: string;
  at: number;
  migrations: Migrations;
}

function DrainedTasks({ tasks }: { tasks: TaskMigrations[] }) {
  return html`
    <${Card}
      title="Tasks with no pending jobs"
      actions=${html`<span class="muted">${formatCountOf(tasks.length, "task")}</span>`}
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
  const { api, config } = useBoard();
  const known = useRef(new Map<string, Known>());
  const { data, error, loading } = useLiveResource(
    async (signal): Promise<TaskMigrations[]> => {
      const overview = await api.get("/overview", { signal });
      // Still good: read at the same counts, within the backstop period.
      const since = Date.now() - config.refreshInterval * BACKSTOP_FACTOR;
      const next = new Map<string, Known>();
      const tasks = await Promise.all(overview.tasks.map(async ({ name, stats }) => {
        const counts = pendingCounts(stats);
        const last = known.current.get(name);
        const entry = last && last.counts === counts && last.at > since ? last : {
          counts,
          at: Date.now(),
          migrations: await api.get("/tasks/{task}/migrations", {
            params: { task: name },
            signal,
          }),
        };
        next.set(name, entry);
        return { task: name, migrations: entry.migrations };
      }));
      known.current = next;
      return tasks;
    },
    [],
    // Job events come by the thousand; the counts they move arrive in every stats frame.
    { relevant: () => false, follows: (frame) => frame.tasks.map((t) => pendingCounts(t.stats)) },
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
