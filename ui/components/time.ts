/**
 * A point in time shown as relative (`3m ago`) with the absolute local time
 * in a tooltip and in the machine-readable `datetime`.
 *
 * @module
 */
import { formatDateTime, formatRelative } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** `<time>` for an epoch-ms value; `—` when there is none. */
export function Time({ at }: { at: number | null | undefined }) {
  if (typeof at !== "number" || !Number.isFinite(at)) return html`<span class="muted">—</span>`;
  return html`<time datetime=${new Date(at).toISOString()} title=${formatDateTime(at)}>${
    formatRelative(at)
  }</time>`;
}
