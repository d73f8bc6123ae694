/**
 * `useOverview()`: the overview answer kept current by the event stream;
 * `useOverviewPage(query)`: one page of its tasks the same way. The
 * counts of the newest `stats:update` replace the answer's (while Redis is
 * down the frame carries the last counts the board read, which are still the
 * newest); a task that appears in the frames is listed at once, and the
 * answer is reloaded for health whenever the counts health is judged on
 * change, so a row never lags the counts by more than one stats interval.
 *
 * @module
 */
import { useMemo } from "preact/hooks";
import { useBoard } from "../../lib/board_context.ts";
import type { StatsUpdate } from "../../lib/live.ts";
import { type Overview, STATES, type TaskHealth } from "../../lib/types.ts";
import type { TaskListQuery } from "../../../src/contract/task_list.ts";
import { type LiveResource, useLiveResource } from "../../lib/use_live_resource.ts";
import { type Placed, placedAt } from "../../lib/api.ts";

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

/** An overview answer (`O`: and what came with it, its place) with the stream's counts merged in. */
export type LiveOverview<O extends Overview = Overview> = Omit<O, "tasks"> & {
  tasks: OverviewTask[];
};

/** The answer with the frame's totals and the rows `rows` makes, when the frame carries counts. */
function withFrame<O extends Overview>(
  overview: O,
  stats: StatsUpdate | null,
  rows: (frame: StatsUpdate) => OverviewTask[],
): LiveOverview<O> {
  if (!stats || (!stats.connected && stats.tasks.length === 0)) return overview;
  return { ...overview, totals: stats.totals, tasks: rows(stats) };
}

/** The overview answer with the counts of `stats` (when it carries any) merged in. */
export function mergeStats(overview: Overview, stats: StatsUpdate | null): LiveOverview {
  return withFrame(overview, stats, (frame) => {
    const answered = new Map(overview.tasks.map((task) => [task.name, task]));
    return frame.tasks.map((task) => {
      const known = answered.get(task.name);
      return {
        ...task,
        health: known?.health ?? null,
        latency: known?.latency ?? null,
        rate: known?.rate ?? null,
      };
    });
  });
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

/**
 * A page of the overview's tasks with the counts of `stats` merged in: each
 * row's counts from the frame, the totals too; the page keeps its rows and
 * their order until the next answer, and a row the frame does not change
 * stays the same object (so it is not drawn again).
 */
export function mergePage<O extends Overview>(
  overview: O,
  stats: StatsUpdate | null,
): LiveOverview<O> {
  return withFrame(overview, stats, (frame) => {
    const counted = new Map(frame.tasks.map((task) => [task.name, task]));
    return overview.tasks.map((task) => {
      const row = counted.get(task.name);
      const same = !row || (row.retryingAsOf === task.retryingAsOf &&
        STATES.every((state) => row.stats[state] === task.stats[state]));
      return same ? task : { ...task, stats: row.stats, retryingAsOf: row.retryingAsOf };
    });
  });
}

/**
 * One page of the overview's tasks (`query`: filter, order, page), merged
 * with the newest `stats:update`, reloaded when health inputs change, with
 * the place it was asked for. While the next page (or the next filter's)
 * loads, the last one stays on screen, with its place.
 */
export function useOverviewPage(
  query: TaskListQuery & { group?: "prefix" },
): LiveResource<LiveOverview<Placed<Overview>>> {
  const { api, live } = useBoard();
  const overview = useLiveResource(
    (signal) =>
      placedAt(api.get("/overview", { query, signal }), query.offset ?? 0, query.limit ?? 0),
    [JSON.stringify(query)],
    { relevant: () => false, follows: healthInputs, keepWithin: [] },
  );
  const stats = live.stats.value;
  const { data } = overview;
  const merged = useMemo(() => data && mergePage(data, stats), [data, stats]);
  return { ...overview, data: merged };
}
