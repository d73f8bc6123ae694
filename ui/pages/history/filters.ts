/**
 * The history search's filters: task (every task or one), state, time
 * window, version, error text and id prefix, kept in the URL
 * (`history?error=timeout&state=failed`) so a search can be linked. The
 * window is the browser's local time; the API is sent epoch ms.
 *
 * @module
 */
import { HISTORY_OUTCOMES } from "../../../src/contract/history.ts";
import type { HistorySearchQuery } from "../../../src/contract/endpoints.ts";
import { FilterText } from "../../components/filter_text.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import {
  filtersFrom as filtersOf,
  queryOf as queryOfFields,
  type UrlFilters,
} from "../../lib/url_filters.ts";

/** The filter fields, in the order the form shows them. */
const FILTER_FIELDS = ["task", "state", "from", "to", "version", "error", "idPrefix"] as const;

/** A filter field. */
type FilterField = (typeof FILTER_FIELDS)[number];

/** The chosen filters as the form holds them; absent means any. */
export type Filters = UrlFilters<FilterField>;

/** The filters a query string names. */
export const filtersFrom = (search: string): Filters => filtersOf(search, FILTER_FIELDS);

/** The query string of the filters, without `?`: the page's own URL. */
export const queryOf = (filters: Filters): string => queryOfFields(filters, FILTER_FIELDS);

/** A `datetime-local` value as epoch ms; a value no date reads is sent as typed, for the API's 400. */
const epochOf = (local: string | undefined) => {
  if (local === undefined) return undefined;
  const ms = new Date(local).getTime();
  return Number.isFinite(ms) ? ms : local;
};

/** The API's search query for the filters. */
export function searchQueryOf(filters: Filters): HistorySearchQuery {
  return {
    task: filters.task,
    state: filters.state,
    from: epochOf(filters.from),
    to: epochOf(filters.to),
    version: filters.version === undefined ? undefined : Number(filters.version),
    error: filters.error,
    idPrefix: filters.idPrefix,
  };
}

/** The form: text fields applied on Enter or leaving them, selects at once. */
export function FilterBar(
  { filters, onChange }: { filters: Filters; onChange(filters: Filters): void },
) {
  const { live } = useBoard();
  const tasks = live.stats.value?.tasks.map((t) => t.name) ?? [];
  const set = (field: FilterField) => (event: Event) =>
    apply(field, (event.currentTarget as HTMLSelectElement).value.trim());
  const apply = (field: FilterField, value: string) => {
    if ((filters[field] ?? "") !== value) onChange({ ...filters, [field]: value || undefined });
  };
  const input = (
    field: FilterField,
    label: string,
    type: "text" | "number" | "datetime-local" = "text",
  ) =>
    html`
      <${FilterText} name=${field} label=${label} type=${type} value=${filters[field] ?? ""}
        onApply=${(value: string) => apply(field, value)} />
    `;
  // A task in the URL that the stats frame does not list (yet) stays choosable.
  const choices = filters.task && !tasks.includes(filters.task) ? [filters.task, ...tasks] : tasks;
  return html`
    <form class="filter-bar" role="search" aria-label="Search the history"
      onSubmit=${(e: Event) => e.preventDefault()}>
      <label class="filter-field">
        <span class="muted">Task</span>
        <select class="select" name="task" value=${filters.task ?? ""} onChange=${set("task")}>
          <option value="">All tasks</option>
          ${choices.map((name) => html`<option key=${name} value=${name}>${name}</option>`)}
        </select>
      </label>
      <label class="filter-field">
        <span class="muted">State</span>
        <select class="select" name="state" value=${filters.state ?? ""} onChange=${set("state")}>
          <option value="">Any state</option>
          ${HISTORY_OUTCOMES.map((state) =>
            html`<option key=${state} value=${state}>${state}</option>`
          )}
        </select>
      </label>
      ${input("from", "Ended from", "datetime-local")} ${input(
        "to",
        "Ended before",
        "datetime-local",
      )}
      ${input("version", "Version", "number")} ${input("error", "Error contains")}
      ${input("idPrefix", "ID starts with")}
    </form>
  `;
}
