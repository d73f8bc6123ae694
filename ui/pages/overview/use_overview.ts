/**
 * `useOverview()`: the overview answer kept current by the event stream. The
 * counts of the newest `stats:update` replace the answer's (while Redis is
 * down the frame carries the last counts the board read, which are still the
 * newest); a task that appears in the frames is listed at once, and the
 * answer is reloaded for health whenever the counts health is judged on
 * change, so a row never lags the counts by more than one stats interval.
 *
 * @module
 */
import { useBoard } from "../../lib/board_context.ts";
import type { StatsUpdate } from "../../lib/live.ts";
import type { Overview, TaskHealth } from "../../lib/types.ts";
import { type LiveResource, useLiveResource } from "../../lib/use_live_resource.ts";

type AnsweredTask = Overview["tasks"][number];

/**
 * A task row: its health, latency and rate are null until the overview
 * answer that knows the task arrives.
 */
export type OverviewTask = Omit<AnsweredTask, "health" | "latency" | "rate"> & {
  health: TaskHealth | null;
  latency: AnsweredTask["latency"] | null;
  rate: AnsweredTask["rate"] | null;
};

/** The overview answer with the stream's counts merged in. */
export type LiveOverview = Omit<Overview, "tasks"> & { tasks: OverviewTask[] };

/** The overview answer with the counts of `stats` (when it carries any) merged in. */
export function mergeStats(overview: Overview, stats: StatsUpdate | null): LiveOverview {
  if (!stats || (!stats.connected && stats.tasks.length === 0)) return overview;
  const answered = new Map(overview.tasks.map((task) => [task.name, task]));
  return {
    ...overview,
    totals: stats.totals,
    tasks: stats.tasks.map((task) => {
      const known = answered.get(task.name);
      return {
        ...task,
        health: known?.health ?? null,
        latency: known?.latency ?? null,
        rate: known?.rate ?? null,
      };
    }),
  };
}

/** What of a stats frame a task's health depends on: the tasks and their finished and queued counts. */
export function healthInputs(stats: StatsUpdate): unknown {
  return stats.tasks.map(({ name, stats: { failed, completed, active, delayed } }) => [
    name,
    failed,
    completed,
    active,
    delayed,
  ]);
}

/** The overview answer merged with the newest `stats:update`. */
export function useOverview(): LiveResource<LiveOverview> {
  const { api, live } = useBoard();
  const overview = useLiveResource(
    (signal) => api.get("/overview", { signal }),
    [],
    // Counts arrive by stats:update. The answer reloads for each task's health when the task
    // list or the counts health is judged on (finished, active, delayed) change.
    { relevant: () => false, follows: healthInputs },
  );
  const stats = live.stats.value;
  return overview.data ? { ...overview, data: mergeStats(overview.data, stats) } : overview;
}
