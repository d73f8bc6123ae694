/**
 * The job filter in the task page's URL. Its parameters are the search
 * API's own (`from`, `to`, `id`, `field`, `contains`, `path`, `value`,
 * `cursor`), so the page's query string, minus nothing, is the API's: a
 * link to a filtered tab reproduces the search, and a page of it.
 *
 * @module
 */

import {
  JOB_FILTER_PARAMS,
  type JobFilterParam,
  type JobFilterQuery,
} from "../../../src/contract/job_filter.ts";

/** The filter of a query string, as form values (absent ones empty). */
export type FilterValues = Record<JobFilterParam, string>;

/** The filter values of a query string. */
export function filterOf(search: string): FilterValues {
  const query = new URLSearchParams(search);
  return Object.fromEntries(
    JOB_FILTER_PARAMS.map((name) => [name, query.get(name) ?? ""]),
  ) as FilterValues;
}

/** Whether a query string holds a filter (the tab then shows a search, not the list). */
export function hasFilter(search: string): boolean {
  const values = filterOf(search);
  return JOB_FILTER_PARAMS.some((name) => values[name] !== "");
}

/**
 * The filter's parameters that are set, as the search's query and a bulk
 * selector take them: empty values are left out, but for `value` with a
 * `path` (`value=` looks for the empty string).
 */
export function setParams(values: Partial<FilterValues>): JobFilterQuery {
  const set: JobFilterQuery = {};
  for (const name of JOB_FILTER_PARAMS) {
    const value = values[name];
    if (value || (name === "value" && values.path && value === "")) set[name] = value;
  }
  return set;
}

/**
 * The query string of a state's tab with a filter and, to show a later
 * page of its matches, a cursor.
 */
export function filterQuery(state: string, values: Partial<FilterValues>, cursor?: string): string {
  const query = new URLSearchParams({ state, ...setParams(values) });
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}

/** A datetime-local input's value (the browser's zone) as an ISO instant, or "" when empty or invalid. */
export function isoOfLocal(local: string): string {
  const at = local ? new Date(local).getTime() : NaN;
  return Number.isNaN(at) ? "" : new Date(at).toISOString();
}

/** An ISO instant or epoch ms as a datetime-local value in the browser's zone ("" when unreadable). */
export function localOfIso(value: string): string {
  const at = /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!value || Number.isNaN(at)) return "";
  const local = new Date(at - new Date(at).getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 19);
}
