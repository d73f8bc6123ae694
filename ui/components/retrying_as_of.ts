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

/**
 * The oldest of several figures' times: null when one was never counted,
 * undefined when none says (a board too old to answer `retryingAsOf`).
 */
export function oldestAsOf(
  times: readonly (number | null | undefined)[],
): number | null | undefined {
  let oldest: number | undefined;
  for (const at of times) {
    if (at === null) return null;
    if (at !== undefined && (oldest === undefined || at < oldest)) oldest = at;
  }
  return oldest;
}

/**
 * `as of 3m ago` (or `counting…`), after `what` when given (`retrying as
 * of 3m ago`, where the note stands for a whole card); nothing while the
 * figure is current or its age unknown.
 */
export function RetryingAsOf({ at, what }: { at: number | null | undefined; what?: string }) {
  if (at === undefined) return null;
  const now = currentTime();
  if (at !== null && now - at < FRESH_MS) return null;
  const title = at === null
    ? "Not counted yet: the board counts retrying jobs in the background. Until then they count as delayed."
    : `Counted at ${
      formatDateTime(at)
    }. Jobs that began or stopped retrying since may still count as delayed.`;
  const age = at === null ? "counting…" : `as of ${formatRelative(at, now)}`;
  return html`<small class="as-of" title=${title}>${what ? `${what} ${age}` : age}</small>`;
}
