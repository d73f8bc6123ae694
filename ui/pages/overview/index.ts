/**
 * The overview page: state counters, the 24 h throughput chart, the task
 * table and the Redis panel. Counts follow the event stream's
 * `stats:update` (while Redis is down a frame carries the last counts the
 * board read, still the newest); the Redis panel says "Disconnected" as soon
 * as the stream or a request says Redis is down.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import type { Overview } from "../../lib/types.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { RedisCard, type RedisLink } from "./redis_card.ts";
import { StateCounters } from "./state_counters.ts";
import { TasksCard } from "./task_table.ts";
import { ThroughputCard } from "./throughput_card.ts";

/** The overview answer merged with the newest `stats:update`. */
export function useOverview() {
  const { api, live } = useBoard();
  const overview = useLiveResource(
    (signal) => api.get<Overview & { at?: number }>("overview", { signal }),
    [],
    // Counts arrive by stats:update; the overview itself refreshes on the backstop timer.
    { relevant: () => false },
  );
  const stats = live.stats.value;
  const data = overview.data;
  if (!data || !stats || (!stats.connected && stats.tasks.length === 0)) return overview;
  const fresh = new Map(stats.tasks.map((task) => [task.name, task.stats]));
  return {
    ...overview,
    data: {
      ...data,
      totals: stats.totals,
      tasks: data.tasks.map((task) => ({
        ...task,
        stats: { ...task.stats, ...fresh.get(task.name) } as typeof task.stats,
      })),
    },
  };
}

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
