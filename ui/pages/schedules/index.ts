/**
 * The schedules page: every taskora schedule with a live countdown to its
 * next run, who leads the schedulers, and pause, resume, run now, edit and
 * delete, each for a user allowed it.
 *
 * @module
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { SchedulerLeaderNote } from "../../components/liveness.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount, formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { useSchedulerLeadership } from "../../lib/liveness.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { ScheduleTable } from "./schedule_table.ts";
import { BOARD_RUNS_KEPT } from "../../../src/contract/schedules.ts";
import type { Schedule } from "./types.ts";
import { scheduleControls } from "./schedule_actions.ts";

/** Time after a due run before asking again, so the scheduler has dispatched it. */
const AFTER_DUE_MS = 1500;
/**
 * Shortest gap between two reads of the list that runs and job events ask
 * for: a schedule running every second must not make every open tab read
 * the list every second. Edits, pauses and triggers read it at once.
 */
const READ_GAP_MS = 30_000;
/** setTimeout's ceiling (~24.8 days); later runs are caught by the regular refresh. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Reloads once just after the soonest next run, when the scheduler has
 * moved it on, but not sooner than {@link READ_GAP_MS} after this read.
 */
function useReloadWhenDue(schedules: Schedule[] | null, reload: () => void): void {
  useEffect(() => {
    const now = Date.now();
    const upcoming = (schedules ?? [])
      .map((s) => s.nextRun)
      .filter((at): at is number => at !== null && at > now);
    if (upcoming.length === 0) return;
    const due = Math.min(...upcoming) - now + AFTER_DUE_MS;
    const wait = Math.min(Math.max(due, READ_GAP_MS), MAX_TIMER_MS);
    const timer = setTimeout(reload, wait);
    return () => clearTimeout(timer);
  }, [schedules]);
}

/** The schedules page. */
export function SchedulesPage() {
  const { api, config } = useBoard();
  const [editing, setEditing] = useState<string | null>(null);
  const [triggered, setTriggered] = useState<Record<string, string>>({});
  // A last run's status follows its job's events; a new run is read when it is due.
  const lastRuns = useRef(new Set<string>());
  const { data, error, loading, reload } = useLiveResource(
    (signal) => api.get("/schedules", { signal }),
    [],
    { relevant: (event) => lastRuns.current.has(event.id), minGap: READ_GAP_MS },
  );
  lastRuns.current = new Set(data?.flatMap((s) => s.lastJobId ? [s.lastJobId] : []));
  const readAt = useMemo(() => Date.now(), [data]);
  useReloadWhenDue(data, reload);

  const leadership = useSchedulerLeadership();
  const paused = data?.filter((s) => s.paused).length ?? 0;
  const summary = data
    ? html`<span class="muted">${formatCountOf(data.length, "schedule")}${
      paused ? ` · ${formatCount(paused)} paused` : ""
    }</span>`
    : null;
  return html`
    <${ErrorBanner} error=${error} />
    <${Card} title="Schedules" actions=${summary} flush=${true}>
      <p class="liveness-bar"><${SchedulerLeaderNote} leadership=${leadership.data} /></p>
      <p class="schedule-runs-note muted">
        taskora keeps only each schedule's last run; under it are the runs this board dispatched
        (Run now), the newest ${BOARD_RUNS_KEPT}, with their jobs' states.
      </p>
      ${data === null
        ? html`<p class="empty">${loading ? "Loading…" : "No data."}</p>`
        : data.length === 0
        ? html`<p class="empty">
          No schedules: taskora stores one when a worker registers <code>app.schedule()</code>.
        </p>`
        : html`
          <${ScheduleTable}
            schedules=${data}
            readAt=${readAt}
            allowed=${scheduleControls(config)}
            editing=${editing}
            triggered=${triggered}
            onEdit=${setEditing}
            onTriggered=${(name: string, jobId: string) =>
              setTriggered((t) => ({ ...t, [name]: jobId }))}
            onChanged=${reload}
          />
        `}
    <//>
  `;
}
