/**
 * The overview page: state counters, the task table and the Redis panel,
 * refreshed every `refreshInterval`.
 *
 * @module
 */
import { useCallback } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import type { Api } from "../../lib/api.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { Overview } from "../../lib/types.ts";
import { usePoll } from "../../lib/use_poll.ts";
import { RedisCard } from "./redis_card.ts";
import { StateCounters } from "./state_counters.ts";
import { TaskTable } from "./task_table.ts";

/** The overview page. */
export function OverviewPage({ api, refreshInterval }: { api: Api; refreshInterval: number }) {
  const load = useCallback((signal: AbortSignal) => api.get<Overview>("overview", { signal }), [
    api,
  ]);
  const { data, error, loading } = usePoll(load, refreshInterval);
  return html`
    <${ErrorBanner} error=${error} />
    <${StateCounters} totals=${data?.totals ?? null} />
    <div class="grid">
      <${Card}
        title="Tasks"
        flush=${true}
        actions=${data
          ? html`<span class="muted">${formatCount(data.tasks.length)} tasks</span>`
          : null}
      >
        ${data
          ? html`<${TaskTable} tasks=${data.tasks} />`
          : html`<p class="empty">${loading ? "Loading…" : "No data."}</p>`}
      <//>
      ${data ? html`<${RedisCard} redis=${data.redis} uptime=${data.uptime} />` : null}
    </div>
  `;
}
