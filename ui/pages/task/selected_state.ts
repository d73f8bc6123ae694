/**
 * Which state's jobs the task page lists. It lives in the URL query
 * (`?state=failed`) so a view can be linked and survives a reload; when the
 * URL names none, the page picks one from the counts and writes it back.
 *
 * @module
 */
import { useEffect } from "preact/hooks";
import { useBoard } from "../../lib/board_context.ts";
import { href } from "../../lib/router.ts";
import { type JobState, STATES, type TaskStats } from "../../lib/types.ts";
import { filterOf, filterQuery } from "./search_query.ts";

/**
 * The order in which states are considered for the default tab: trouble
 * first (an operator opening a task mid-incident wants its failures), then
 * work in flight, then the queue, then history.
 */
const DEFAULT_ORDER: readonly JobState[] = [
  "failed",
  "retrying",
  "active",
  "waiting",
  "delayed",
  "completed",
  "cancelled",
  "expired",
];

/** The first state in {@link DEFAULT_ORDER} that has jobs; `waiting` for an empty task. */
export function defaultState(stats: TaskStats): JobState {
  return DEFAULT_ORDER.find((state) => stats[state] > 0) ?? "waiting";
}

/** The state named by a query string (`?state=failed`), or null when none or not a state. */
export function stateFromSearch(search: string): JobState | null {
  const value = new URLSearchParams(search).get("state");
  return (STATES as readonly string[]).includes(value ?? "") ? value as JobState : null;
}

/**
 * The selected state and a setter that puts it in the URL. Until the counts
 * are known and the URL names no state, the state is null.
 */
export function useSelectedState(
  task: string,
  stats: TaskStats | null,
): [JobState | null, (state: JobState) => void] {
  const { router } = useBoard();
  const fromUrl = stateFromSearch(router.search.value);
  // Replace, not push: switching tabs should not fill the back button's history.
  // The filter goes along (without its cursor, which is the old state's).
  const select = (state: JobState) =>
    router.navigate(
      `/${href("tasks", task)}?${filterQuery(state, filterOf(router.search.value))}`,
      { replace: true },
    );
  const fallback = stats ? defaultState(stats) : null;
  useEffect(() => {
    if (!fromUrl && fallback) select(fallback);
  }, [fromUrl, fallback]);
  return [fromUrl ?? fallback, select];
}
