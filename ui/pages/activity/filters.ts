/**
 * The Activity page's filters: user, action, task, outcome and whether an
 * agent made it through the MCP endpoint, kept in the
 * URL (`activity?user=ada&outcome=error`) so a view can be linked.
 *
 * @module
 */
import { FilterText } from "../../components/filter_text.ts";
import { html } from "../../lib/html.ts";
import {
  filtersFrom as filtersOf,
  queryOf as queryOfFields,
  type UrlFilters,
} from "../../lib/url_filters.ts";

/** The filter fields, in the order the form shows them. */
export const FILTER_FIELDS = ["user", "action", "task", "outcome", "via"] as const;

/** A filter field. */
export type FilterField = (typeof FILTER_FIELDS)[number];

/** The chosen filters; absent means any. */
export type Filters = UrlFilters<FilterField>;

/** The filters a query string names. */
export const filtersFrom = (search: string): Filters => filtersOf(search, FILTER_FIELDS);

/** The query string of the filters, without `?`: the page's own URL. */
export const queryOf = (filters: Filters): string => queryOfFields(filters, FILTER_FIELDS);

/** The form: text fields for user and task (applied on Enter or leaving them), selects for the rest. */
export function FilterBar(
  { filters, actions, onChange }: {
    filters: Filters;
    actions: readonly string[];
    onChange(filters: Filters): void;
  },
) {
  const apply = (field: FilterField, value: string) => {
    if ((filters[field] ?? "") !== value) onChange({ ...filters, [field]: value || undefined });
  };
  const set = (field: FilterField) => (event: Event) =>
    apply(field, (event.currentTarget as HTMLSelectElement).value.trim());
  const text = (field: FilterField, label: string) =>
    html`
      <${FilterText} name=${field} label=${label} value=${filters[field] ?? ""}
        onApply=${(value: string) => apply(field, value)} />
    `;
  return html`
    <form class="filter-bar" role="search" onSubmit=${(e: Event) => e.preventDefault()}>
      ${text("user", "User")}
      <label class="filter-field">
        <span class="muted">Action</span>
        <select class="select" name="action" value=${filters.action ?? ""} onChange=${set(
          "action",
        )}>
          <option value="">Any action</option>
          ${actions.map((action) => html`<option key=${action} value=${action}>${action}</option>`)}
        </select>
      </label>
      ${text("task", "Task")}
      <label class="filter-field">
        <span class="muted">Outcome</span>
        <select class="select" name="outcome" value=${filters.outcome ?? ""} onChange=${set(
          "outcome",
        )}>
          <option value="">Any outcome</option>
          <option value="ok">ok (done)</option>
          <option value="error">error (refused or failed)</option>
          <option value="pending">pending (no outcome)</option>
        </select>
      </label>
      <label class="filter-field">
        <span class="muted">Made through</span>
        <select class="select" name="via" value=${filters.via ?? ""} onChange=${set("via")}>
          <option value="">Anything</option>
          <option value="mcp">an agent (MCP)</option>
          <option value="api">the UI or the API</option>
        </select>
      </label>
    </form>
  `;
}
