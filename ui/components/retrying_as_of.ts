/**
 * How old a task's retrying figure is, said next to it when it is older
 * than a few seconds. The board keeps the retrying / delayed split in
 * memory (from the event stream, reconciled in the background) instead of
 * reading every delayed job per request; the API says since when it is
 * exact (`retryingAsOf`, null before the first count).
 *
 * @module
 */
import { currentTime } from "../lib/clock.ts";
import { formatDateTime, formatRelative } from "../lib/format.ts";
import { html } from "../lib/html.ts";

/** Younger than this, the figure is shown as current (stats frames come every 3 s). */
const FRESH_MS = 10_000;

/** `as of 3m ago` (or `counting…`); nothing while the figure is current or its age unknown. */
export function RetryingAsOf({ at }: { at: number | null | undefined }) {
  if (at === undefined) return null;
  const now = currentTime();
  if (at !== null && now - at < FRESH_MS) return null;
  const title = at === null
    ? "Not counted yet: the board counts retrying jobs in the background. Until then they count as delayed."
    : `Counted at ${
      formatDateTime(at)
    }. Jobs that began or stopped retrying since may still count as delayed.`;
  return html`<small class="as-of" title=${title}>${
    at === null ? "counting…" : `as of ${formatRelative(at, now)}`
  }</small>`;
}
