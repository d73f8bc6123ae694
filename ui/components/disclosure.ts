/**
 * The button that opens a table row to what is under it (a DLQ group's
 * jobs, an alert rule's alerts): a chevron that turns when open, the label
 * beside it, `aria-expanded` and the panel it controls.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** The button; `panel` is the id of what it opens, shown while `expanded`. */
export function Disclosure(
  { expanded, panel, onToggle, className, children }: {
    expanded: boolean;
    panel: string;
    onToggle(): void;
    /** The caller's class, for its layout. */
    className: string;
    children: ComponentChildren;
  },
) {
  return html`
    <button
      type="button"
      class=${`disclosure ${className}`}
      aria-expanded=${expanded ? "true" : "false"}
      aria-controls=${expanded ? panel : undefined}
      onClick=${onToggle}
    >
      <svg class="disclosure-chevron" viewBox="0 0 16 16" aria-hidden="true">
        <path d="M6 4l4 4-4 4" />
      </svg>
      ${children}
    </button>
  `;
}
