/**
 * The next-run cell: a countdown that ticks every second. All countdowns of
 * the page read one shared clock signal ({@link useClock}), so a hundred
 * schedules cost one timer, and only the countdown cells re-render per tick.
 *
 * @module
 */
import { type ReadonlySignal, useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import { formatDateTime, formatDuration } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** The current time (ms), updated once a second while the calling component is mounted. */
export function useClock(): ReadonlySignal<number> {
  const now = useSignal(Date.now());
  useEffect(() => {
    const timer = setInterval(() => {
      now.value = Date.now();
    }, 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

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

/**
 * When a schedule runs next: `in 04:12:09`, `due now`, or `overdue 3h 2m`
 * when the time has passed and no scheduler has moved it (no worker is
 * running taskora's scheduler, or it lags).
 */
export function NextRun(
  { at, paused, clock }: { at: number | null; paused: boolean; clock: ReadonlySignal<number> },
) {
  if (paused || at === null) return html`<span class="muted">none while paused</span>`;
  const ahead = at - clock.value;
  const exact = formatDateTime(at);
  if (ahead > 0) {
    return html`
      <span class="schedule-next">
        <span class="schedule-countdown">in ${formatCountdown(ahead)}</span>
        <time class="schedule-next-at muted" datetime=${new Date(at).toISOString()}>${exact}</time>
      </span>
    `;
  }
  // A few seconds late is the scheduler's polling, not a problem.
  if (ahead > -5000) return html`<span class="schedule-countdown">due now</span>`;
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
