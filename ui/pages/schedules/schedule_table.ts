/**
 * The schedules table: what each schedule dispatches, how it runs, a live
 * countdown to its next run, how its last run went, and the actions the
 * user may use, with the edit form opening under its row.
 *
 * @module
 */
import { ScrollArea } from "../../components/scroll_area.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { Time } from "../../components/time.ts";
import { shortId } from "../../lib/format.ts";
import { LongName } from "../../components/long_text.ts";
import { PanelRow } from "../../components/panel_row.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { NextRun } from "./countdown.ts";
import { anyControl, ScheduleActions, type ScheduleControls } from "./schedule_actions.ts";
import { ScheduleEditor } from "./schedule_editor.ts";
import type { Schedule } from "./types.ts";
import { UpcomingRuns } from "./upcoming_runs.ts";
import { ScheduleRuns } from "./schedule_runs.ts";

/** A job id as a link to its page: short on screen, whole in the tooltip. */
function JobLink({ id }: { id: string }) {
  return html`<a class="schedule-job" href=${href("jobs", id)} title=${id}>${shortId(id)}</a>`;
}

/** How it runs in words (the API's), and a cron expression as written. */
function Cadence({ schedule: { description, config } }: { schedule: Schedule }) {
  const { cron, timezone } = config;
  return html`
    ${description === null
      ? html`<span class="muted">${cron === undefined ? "—" : "unreadable cron"}</span>`
      : html`<span class="schedule-words">${description}</span>`}
    ${cron === undefined ? null : html`
      <span class="schedule-expression">
        <code class="schedule-cron">${cron}</code>
        ${description === null
          ? html`<span class="muted schedule-zone">${timezone ?? "worker time zone"}</span>`
          : null}
      </span>
    `}
  `;
}

/** A state older than this when the list was read says when it was read. */
const STATE_AGE_SHOWN_MS = 5_000;

/**
 * When a state the source trusted from an earlier read was read, once it is
 * {@link STATE_AGE_SHOWN_MS} older than the list; nothing where the state is
 * read for each answer (no `at`).
 */
function StateAge({ at, readAt }: { at: number | undefined; readAt: number }) {
  return at !== undefined && readAt - at >= STATE_AGE_SHOWN_MS
    ? html`<span class="muted schedule-status-age">state as of <${Time} at=${at} /></span>`
    : null;
}

function LastRun({ schedule, readAt }: { schedule: Schedule; readAt: number }) {
  const statusAt = schedule.lastRunStatusAt;
  if (schedule.lastRun === null) return html`<span class="muted">never</span>`;
  return html`
    <span class="schedule-last-run">
      <span class="schedule-last-job">
        ${schedule.lastRunStatus
          ? html`<${StateBadge} state=${schedule.lastRunStatus} />`
          : schedule.lastJobId
          ? html`<span class="muted" title="The job is no longer in the store">job gone</span>`
          : null}
        ${schedule.lastJobId ? html`<${JobLink} id=${schedule.lastJobId} />` : null}
        <${StateAge} at=${statusAt} readAt=${readAt} />
      </span>
      <span class="schedule-last-at muted"><${Time} at=${schedule.lastRun} /></span>
    </span>
  `;
}

/**
 * The runs this board dispatched ("Run now"), newest first, each with its
 * job's state now, and when it was read where the source trusted an earlier read.
 */
function BoardRuns({ runs, readAt }: { runs: Schedule["boardRuns"]; readAt: number }) {
  if (runs.length === 0) return null;
  return html`
    <details class="schedule-board-runs">
      <summary>Run from the board: ${runs.length}</summary>
      <ol>
        ${runs.map((run) =>
          html`
            <li key=${run.jobId}>
              ${run.state
                ? html`<${StateBadge} state=${run.state} />`
                : html`<span class="muted" title="The job is no longer in the store">job gone</span>`}
              <${JobLink} id=${run.jobId} />
              <span class="muted"><${Time} at=${run.at} /></span>
              <${StateAge} at=${run.stateAt} readAt=${readAt} />
            </li>
          `
        )}
      </ol>
    </details>
  `;
}

/** What the table does to a row, by schedule name. */
export interface ScheduleTableProps {
  schedules: Schedule[];
  /** When `schedules` was read (ms): a next run past by then is overdue. */
  readAt: number;
  /** The controls the user may use; none: no actions column. */
  allowed: ScheduleControls;
  /** The schedule whose edit form is open. */
  editing: string | null;
  /** The job each schedule's "Run now" dispatched in this visit. */
  triggered: Readonly<Record<string, string>>;
  onEdit(name: string | null): void;
  onTriggered(name: string, jobId: string): void;
  onChanged(): void;
}

/** The table; rows in the API's order (by name). */
export function ScheduleTable(props: ScheduleTableProps) {
  const { schedules, readAt, allowed, editing, triggered } = props;
  const acting = anyControl(allowed);
  const columns = acting ? 5 : 4;
  return html`
    <${ScrollArea}>
      <table class="table cards schedule-table">
        <thead>
          <tr>
            <th scope="col">Schedule</th>
            <th scope="col">Runs</th>
            <th scope="col">Next run</th>
            <th scope="col">Last run</th>
            ${acting ? html`<th scope="col" class="schedule-actions-col">Actions</th>` : null}
          </tr>
        </thead>
        <tbody>
          ${schedules.map((schedule) => {
            const { name, paused, nextRun, config: { task, timezone } } = schedule;
            const isEditing = editing === name;
            return html`
              <tr key=${name} class=${paused ? "is-paused" : undefined}>
                <th scope="row">
                  <span class="schedule-name">
                    <${LongName} name=${name} />
                    ${paused ? html`<span class="health health-warn">Paused</span>` : null}
                  </span>
                  <span class="schedule-task muted">
                    runs <${LongName} name=${task} href=${href("tasks", task)} />
                  </span>
                  ${triggered[name]
                    ? html`<span class="schedule-triggered">
                      triggered: <${JobLink} id=${triggered[name]} />
                    </span>`
                    : null}
                </th>
                <td data-label="Runs">
                  <${Cadence} schedule=${schedule} />
                </td>
                <td data-label="Next run">
                  <${UpcomingRuns}
                    runs=${schedule.upcomingRuns}
                    timeZone=${timezone}
                  >
                    <${NextRun} at=${nextRun} paused=${paused} timeZone=${timezone} readAt=${readAt} />
                  <//>
                </td>
                <td data-label="Last run">
                  <${LastRun} schedule=${schedule} readAt=${readAt} />
                  <${BoardRuns} runs=${schedule.boardRuns} readAt=${readAt} />
                  <${ScheduleRuns} name=${schedule.name} />
                </td>
                ${!acting ? null : html`
                  <td class="schedule-actions-col">
                    <${ScheduleActions}
                      schedule=${schedule}
                      editing=${isEditing}
                      allowed=${allowed}
                      onChanged=${props.onChanged}
                      onTriggered=${(jobId: string) => props.onTriggered(name, jobId)}
                      onEdit=${() => props.onEdit(name)}
                    />
                  </td>
                `}
              </tr>
              ${isEditing && allowed.update
                ? html`
                  <${PanelRow} key=${`${name}:edit`} className="schedule-edit-row" columns=${columns}>
                    <${ScheduleEditor}
                      schedule=${schedule}
                      onDone=${(saved: boolean) => {
                        props.onEdit(null);
                        if (saved) props.onChanged();
                      }}
                    />
                    <//>
                `
                : null}
            `;
          })}
        </tbody>
      </table>
      <//>
  `;
}
