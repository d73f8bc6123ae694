/**
 * One labelled fact of a `<dl class="facts">` grid.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** A `<dt>` label over its `<dd>` value. */
export function Fact({ label, children }: { label: string; children: ComponentChildren }) {
  return html`
    <div>
      <dt>${label}</dt>
      <dd>${children}</dd>
    </div>
  `;
}
