/**
 * A point in time shown as relative (`3m ago`), kept current by the shared
 * clock (`lib/clock.ts`), with the absolute time and its zone in a tooltip
 * and in the machine-readable `datetime`.
 *
 * @module
 */
import { currentTime } from "../lib/clock.ts";
import { formatDateTime, formatRelative } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** `<time>` for an epoch-ms value; `—` when there is none. */
export function Time({ at }: { at: number | null | undefined }) {
  if (typeof at !== "number" || !Number.isFinite(at)) return html`<span class="muted">—</span>`;
  return html`<time datetime=${new Date(at).toISOString()} title=${formatDateTime(at)}>${
    formatRelative(at, currentTime())
  }</time>`;
}
