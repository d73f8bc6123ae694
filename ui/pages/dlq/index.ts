/**
 * The dead-letter queue: every failed job, grouped by error, most frequent
 * first. A group opens to its jobs; one job, one group or everything can be
 * retried (unless read-only). Optionally filtered to one task.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { GroupTable } from "./group_table.ts";
import { jobCount, retryAll } from "./retry.ts";
import { RetryButton } from "./retry_button.ts";
import { TaskFilter, useTaskFilter } from "./task_filter.ts";
import { type DeadLetters, dlqQuery, failedCount, joinsDlq } from "./types.ts";
import { may } from "../../lib/permissions.ts";

/** Failed jobs, groups, tasks affected and the latest failure, as counter cards. */
function Summary({ dlq }: { dlq: DeadLetters | null }) {
  const groups = dlq?.groups ?? [];
  const tasks = new Set(groups.flatMap((g) => g.tasks));
  const lastSeen = groups.length ? Math.max(...groups.map((g) => g.lastSeen)) : null;
  const value = (n: number) => dlq ? formatCount(n) : "—";
  return html`
    <ul class="counters" aria-label="Dead-letter queue summary">
      <li class="counter state-failed">
        <span class="counter-label">Failed jobs</span>
        <span class="counter-value">${value(dlq?.total ?? 0)}</span>
      </li>
      <li class="counter">
        <span class="counter-label">Error groups</span>
        <span class="counter-value">${value(groups.length)}</span>
      </li>
      <li class="counter">
        <span class="counter-label">Tasks affected</span>
        <span class="counter-value">${value(tasks.size)}</span>
      </li>
      <li class="counter">
        <span class="counter-label">Last failure</span>
        <span class="counter-value dlq-last-failure">${lastSeen === null
          ? "—"
          : html`<${Time} at=${lastSeen} />`}</span>
      </li>
    </ul>
  `;
}

function EmptyState({ task, onClear }: { task: string | null; onClear(): void }) {
  return html`
    <div class="dlq-empty">
      <svg class="dlq-empty-icon" viewBox="0 0 24 24" aria-hidden="true">
        <path d="M20 6 9 17l-5-5" />
      </svg>
      ${task
        ? html`
          <p>No failed jobs in ${task}.</p>
          <button type="button" class="btn btn-small" onClick=${onClear}>Show every task</button>
        `
        : html`<p>No failed jobs — the dead-letter queue is empty</p>`}
    </div>
  `;
}

/** The DLQ page. */
export function DlqPage() {
  const { api, config } = useBoard();
  const [task, setTask] = useTaskFilter();
  // Bumped after every retry so open groups reload their jobs with the page.
  const [refresh, setRefresh] = useState(0);
  // New failures come as events; jobs that leave (retried here or elsewhere,
  // cleaned) show in the failed count of the next stats frame.
  const { data, error, loading, reload } = useLiveResource(
    (signal) => api.get("/dlq", { query: dlqQuery({ task, limit: 1 }), signal }),
    [task],
    { relevant: joinsDlq(task), follows: (stats) => failedCount(stats, task) },
  );
  const afterRetry = () => {
    reload();
    setRefresh((n) => n + 1);
  };
  const total = data?.total ?? 0;

  const actions = html`
    <div class="dlq-actions">
      <${TaskFilter} task=${task} onChange=${setTask} />
      ${!may(config, "dlq.retry-all") || total === 0 ? null : html`
        <${RetryButton}
          label=${`Retry all ${jobCount(total)}`}
          primary=${true}
          retry=${() => retryAll(api, total, task)}
          onRetried=${afterRetry}
        />
      `}
    </div>
  `;
  return html`
    <${ErrorBanner} error=${error} />
    <${Summary} dlq=${data} />
    <${Card} title="Failed jobs by error" actions=${actions} flush=${true}>
      ${data === null
        ? html`<p class="empty">${loading ? "Loading…" : "No data."}</p>`
        : data.groups.length === 0
        ? html`<${EmptyState} task=${task} onClear=${() => setTask(null)} />`
        : html`
          <${GroupTable}
            groups=${data.groups}
            task=${task}
            refresh=${refresh}
            onRetried=${afterRetry}
          />
        `}
    <//>
  `;
}
