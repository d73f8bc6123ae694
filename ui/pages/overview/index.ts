/**
 * The overview page: state counters, the 24 h throughput chart, the task
 * table and the Redis panel. Counts follow the event stream's
 * `stats:update` (see `use_overview.ts`); the Redis panel says
 * "Disconnected" as soon as the stream or a request says Redis is down.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { RedisCard, type RedisLink } from "./redis_card.ts";
import { StateCounters } from "./state_counters.ts";
import { TasksCard } from "./task_table.ts";
import { ThroughputCard } from "./throughput_card.ts";
import { useOverview } from "./use_overview.ts";

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
  const { data, error, loading } = useOverview();
  const link = useRedisLink(data?.redis.connected ?? true);
  return html`
    <${ErrorBanner} error=${error} />
    <${StateCounters} totals=${data?.totals ?? null} />
    <${ThroughputCard} />
    <div class="grid">
      <${TasksCard} title="Tasks" tasks=${data?.tasks ?? null} loading=${loading} />
      ${data ? html`<${RedisCard} redis=${data.redis} link=${link} uptime=${data.uptime} />` : null}
    </div>
  `;
}
