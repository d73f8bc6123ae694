/**
 * The next runs of a schedule, shown when the next-run cell is hovered or
 * focused: each in the schedule's own time zone (where its cron reads), and
 * in the viewer's when that differs. The server computes the runs with the
 * scheduler's own library (`upcomingRuns`), so the bundle needs no cron
 * code.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { formatDateTime } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { isTimeZone } from "../../lib/time_zone.ts";

/** The viewer's zone, as the browser names it. */
const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `children` (the next-run cell) with the list of `runs` on hover and focus. */
export function UpcomingRuns(
  { runs, timeZone, name, children }: {
    runs: readonly number[];
    timeZone?: string;
    /** The schedule's name, for the list's label. */
    name: string;
    children: ComponentChildren;
  },
) {
  if (runs.length === 0) return children;
  const alsoViewer = timeZone !== undefined && isTimeZone(timeZone) && timeZone !== viewerZone();
  const id = `upcoming-${name}`;
  return html`
    <div class="schedule-upcoming-host" tabindex="0" aria-describedby=${id}>
      ${children}
      <div class="schedule-upcoming" role="tooltip" id=${id}>
        <p class="schedule-upcoming-title">Next ${runs.length} runs</p>
        <ol>
          ${runs.map((at) =>
            html`
              <li key=${at}>
                <time datetime=${new Date(at).toISOString()}>${formatDateTime(at, {
                  timeZone,
                })}</time>
                ${alsoViewer
                  ? html`<span class="muted">your time: ${formatDateTime(at)}</span>`
                  : null}
              </li>
            `
          )}
        </ol>
      </div>
    </div>
  `;
}
