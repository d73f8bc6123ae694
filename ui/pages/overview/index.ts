/**
 * The overview page: state counters, the 24 h throughput chart, the job
 * history's charts (where the board records one), the task
 * list (a page of it: see `task_list_card.ts`) and the Redis panel. The
 * counters stay over every task whatever the list shows. Counts follow the event stream's
 * `stats:update` (see `use_overview.ts`); the Redis panel says
 * "Disconnected" as soon as the stream or a request says Redis is down.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { HistoryCharts } from "../../components/history_charts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { RedisCard, type RedisLink } from "./redis_card.ts";
import { StateCounters } from "./state_counters.ts";
import { overviewQuery, TaskListCard } from "./task_list_card.ts";
import { ThroughputCard } from "./throughput_card.ts";
import { useTaskView } from "./task_view.ts";
import { useOverviewPage } from "./use_overview.ts";

/** Redis as the page knows it now: the answer's word, overruled by fresher news. */
function useRedisLink(answered: boolean): RedisLink {
  const status = useBoard().connectivity.status.value;
  if (status === "store-down") return "disconnected";
  // With the board itself unreachable, nobody can tell.
  if (status === "offline") return "unknown";
  return answered ? "connected" : "disconnected";
}

/** The overview page. */
export function OverviewPage() {
  const [view, changeView] = useTaskView();
  const { data, error, loading, counting } = useOverviewPage(overviewQuery(view));
  const link = useRedisLink(data?.redis.connected ?? true);
  return html`
    <${ErrorBanner} error=${error} />
    <${StateCounters} totals=${data?.totals ?? null} />
    <${ThroughputCard} />
    <${HistoryCharts} />
    <div class="grid">
      <${TaskListCard}
        title="Tasks"
        overview=${data}
        loading=${loading}
      counting=${counting}
        view=${view}
        onChange=${changeView}
      />
      ${data ? html`<${RedisCard} redis=${data.redis} link=${link} uptime=${data.uptime} />` : null}
    </div>
  `;
}
