/**
 * What the task list shows, kept in the URL so that it can be shared and
 * comes back on reload: `?q=billing&sort=failed&health=critical&group=prefix&page=2`.
 * Left out, each is its default: no filter, critical first, no groups, the
 * first page. The task list's `?state=failed` (where a counter leads) is a
 * sort by that state.
 *
 * @module
 */
import { useBoard } from "../../lib/board_context.ts";
import {
  HEALTH_STATUSES,
  type HealthStatus,
  TASK_SORTS,
  type TaskListQuery,
  type TaskSort,
} from "../../../src/contract/task_list.ts";

/** Tasks on one page of the list (and groups on one page of the groups). */
export const PAGE_SIZE = 50;

/** The list's filter, order, grouping and page. */
export interface TaskView {
  /** Part of the name, any case; `""` for every task. */
  q: string;
  /** The order. */
  sort: TaskSort;
  /** One verdict only, or null. */
  health: HealthStatus | null;
  /** Whether the tasks are grouped by name prefix. */
  group: boolean;
  /** The page, from 1. */
  page: number;
}

const DEFAULT_SORT: TaskSort = "health";

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  values.includes(value as T) ? value as T : null;

/** The view a query string (`?q=…`) describes; what it lacks or garbles is the default. */
export function viewFromSearch(search: string): TaskView {
  const params = new URLSearchParams(search);
  const page = Number(params.get("page"));
  return {
    q: params.get("q") ?? "",
    sort: oneOf(TASK_SORTS, params.get("sort")) ?? oneOf(TASK_SORTS, params.get("state")) ??
      DEFAULT_SORT,
    health: oneOf(HEALTH_STATUSES, params.get("health")),
    group: params.get("group") === "prefix",
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The query string of a view, its defaults left out (`""` for the default view). */
export function searchOf(view: TaskView): string {
  const params = new URLSearchParams();
  if (view.q) params.set("q", view.q);
  if (view.sort !== DEFAULT_SORT) params.set("sort", view.sort);
  if (view.health) params.set("health", view.health);
  if (view.group) params.set("group", "prefix");
  if (view.page > 1) params.set("page", String(view.page));
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** What to ask `GET /overview` for one page of the view's tasks (of one group, with `prefix`). */
export function pageQuery(view: TaskView, page: number, prefix?: string): TaskListQuery {
  return {
    q: view.q || undefined,
    health: view.health ?? undefined,
    prefix,
    sort: view.sort,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  };
}

/** The view in the current URL, and a function that changes it (replacing the history entry). */
export function useTaskView(): [TaskView, (change: Partial<TaskView>) => void] {
  const { router } = useBoard();
  const view = viewFromSearch(router.search.value);
  // The URL as it is when the change comes (a typed filter lands after a pause), not as rendered.
  const change = (next: Partial<TaskView>) =>
    router.navigate(
      router.path.peek() + searchOf({ ...viewFromSearch(router.search.peek()), ...next }),
      { replace: true },
    );
  return [view, change];
}
