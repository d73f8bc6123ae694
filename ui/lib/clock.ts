/**
 * The one clock every relative time and countdown of the UI reads. It is a
 * signal that ticks on each second while at least one component reads it,
 * and stops when none does (the signal's `watched` / `unwatched`): a page
 * showing 500 times runs one timer, not 500, and a page showing none runs
 * none. Only the components that read it render again on a tick.
 *
 * @module
 */
import { signal } from "@preact/signals";

let timer: ReturnType<typeof setTimeout> | undefined;

// Ticks on the second, so countdowns and "3s ago" change together.
function schedule(): void {
  timer = setTimeout(() => {
    tick.value++;
    schedule();
  }, 1000 - (Date.now() % 1000));
}

const tick = signal(0, {
  watched: schedule,
  unwatched: () => clearTimeout(timer),
});

/**
 * The current time (ms). A component that calls it while rendering renders
 * again on each second; the value is read fresh, so a clock that was idle
 * never shows a stale time.
 */
export function currentTime(): number {
  void tick.value;
  return Date.now();
}
