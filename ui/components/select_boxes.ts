/**
 * The checkboxes of a selectable list: one per row (a shift-click sets the
 * range from the last click), and the header's box for the page, mixed
 * when some rows are checked. The state is a {@link Selection}.
 *
 * @module
 */
import { html } from "../lib/html.ts";
import type { Selection } from "../lib/selection.ts";

/** A row's box, named after the job for screen readers. */
export function RowCheck({ id, selection }: { id: string; selection: Selection }) {
  return html`
    <input
      type="checkbox"
      class="row-check"
      aria-label=${`Select job ${id}`}
      checked=${selection.ids.has(id)}
      onClick=${(event: MouseEvent) => selection.toggle(id, event.shiftKey)}
    />
  `;
}

/** The header box: checked when the whole page is, mixed when some rows are. */
export function PageCheck(
  { rows, selection }: { rows: readonly { id: string }[]; selection: Selection },
) {
  const some = rows.some((row) => selection.ids.has(row.id));
  const all = rows.length > 0 && rows.every((row) => selection.ids.has(row.id));
  return html`
    <input
      type="checkbox"
      class="page-check"
      aria-label="Select all jobs on this page"
      checked=${all}
      indeterminate=${some && !all}
      onClick=${selection.togglePage}
    />
  `;
}
