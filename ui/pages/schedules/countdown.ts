/**
 * The next-run cell: a countdown that ticks every second, and the exact
 * time in the schedule's own time zone, named. All countdowns read the one
 * shared clock (`lib/clock.ts`), so a hundred schedules cost one timer, and
 * only the countdown cells re-render per tick.
 *
 * @module
 */
import { currentTime } from "../../lib/clock.ts";
import { formatDateTime, formatDuration } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** Milliseconds ahead → `6d 23:59:58`, `04:12:09`, `00:42`: a clock face that ticks visibly. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(total / 86_400);
  const hours = Math.floor((total % 86_400) / 3600);
  const clock = hours > 0 || days > 0
    ? `${pad(hours)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`
    : `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** How late a run may be read before it counts as overdue: the scheduler's polling. */
const LATE_MS = 5000;

/**
 * When a schedule runs next: `in 04:12:09`, `due now`, or `overdue 3h 2m`
 * when the list, read at `readAt`, was already past the time (no worker is
 * running taskora's scheduler, or it lags). Until the list is read again a
 * passed time is only `due now`: the list is re-read at most every 30 s,
 * and a schedule that runs more often has moved on meanwhile. The exact
 * time is in `timeZone` (a cron schedule's own), else in the browser's, and
 * says which.
 */
export function NextRun(
  { at, paused, timeZone, readAt }: {
    at: number | null;
    paused: boolean;
    timeZone?: string;
    readAt: number;
  },
) {
  if (paused || at === null) return html`<span class="muted">none while paused</span>`;
  const ahead = at - currentTime();
  const exact = formatDateTime(at, { timeZone });
  if (ahead > 0) {
    return html`
      <span class="schedule-next">
        <span class="schedule-countdown">in ${formatCountdown(ahead)}</span>
        <time class="schedule-next-at muted" datetime=${new Date(at).toISOString()}>${exact}</time>
      </span>
    `;
  }
  if (readAt - at <= LATE_MS) return html`<span class="schedule-countdown">due now</span>`;
  return html`
    <span
      class="schedule-next"
      title="The next run time has passed and no scheduler has dispatched it: is a taskora worker with the scheduler running?"
    >
      <span class="schedule-countdown overdue">overdue ${formatDuration(-ahead / 1000)}</span>
      <time class="schedule-next-at muted" datetime=${new Date(at).toISOString()}>${exact}</time>
    </span>
  `;
}
