/**
 * The row a table opens under one of its rows (a rule's alerts, an error
 * group's jobs, a schedule's editor): one cell across every column.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** A `<tr>` of one cell spanning `columns`; `id` names it for the disclosure that opens it. */
export function PanelRow(
  { id, className, columns, children }: {
    id?: string;
    className: string;
    columns: number;
    children: ComponentChildren;
  },
) {
  return html`
    <tr class=${className} id=${id}>
      <td colspan=${columns}>${children}</td>
    </tr>
  `;
}
