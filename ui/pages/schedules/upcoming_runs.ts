/**
 * The next runs of a schedule, shown when the next-run cell is hovered or
 * focused: each in the schedule's own time zone (where its cron reads), and
 * in the viewer's when that differs. The server computes the runs with the
 * scheduler's own library (`upcomingRuns`), so the bundle needs no cron
 * code. The list is placed `fixed` under the cell when it opens: the table
 * scrolls sideways, and a list placed inside it would be clipped.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useId, useState } from "preact/hooks";
import { formatDateTime } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { isTimeZone } from "../../lib/time_zone.ts";

/** The viewer's zone, as the browser names it. */
const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** `children` (the next-run cell) with the list of `runs` on hover and focus. */
export function UpcomingRuns(
  { runs, timeZone, children }: {
    runs: readonly number[];
    timeZone?: string;
    children: ComponentChildren;
  },
) {
  const [place, setPlace] = useState<string | undefined>(undefined);
  // Not made of the schedule's name: a name with spaces would read as several ids.
  const id = useId();
  if (runs.length === 0) return children;
  // Under the cell, opening towards the side of the screen with more room.
  const open = (event: Event) => {
    const { bottom, left, right } = (event.currentTarget as HTMLElement).getBoundingClientRect();
    const side = left < innerWidth / 2 ? `left: ${left}px` : `right: ${innerWidth - right}px`;
    setPlace(`top: ${bottom + 4}px; ${side}`);
  };
  const alsoViewer = timeZone !== undefined && isTimeZone(timeZone) && timeZone !== viewerZone();
  return html`
    <div
      class="schedule-upcoming-host"
      tabindex="0"
      aria-describedby=${id}
      onPointerEnter=${open}
      onFocus=${open}
    >
      ${children}
      <div
        class="schedule-upcoming"
        role="tooltip"
        id=${id}
        style=${place}
      >
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
