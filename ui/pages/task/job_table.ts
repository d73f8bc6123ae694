/**
 * The task page's table of jobs in one state. Every state shows the ID,
 * creation time, attempts and progress; each adds the column that matters
 * for it: when an active job started, when a delayed or retrying one is due,
 * when a finished one finished, and why a failed or cancelled one ended.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { ShortId } from "../../components/short_id.ts";
import { ErrorText } from "../../components/long_text.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { LockCell } from "../../components/liveness.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { JobLock } from "../../lib/liveness.ts";
import { href } from "../../lib/router.ts";
import type { JobState } from "../../lib/types.ts";
import { ProgressCell } from "../job/progress.ts";
import type { Job } from "../job/types.ts";
import { PageCheck, RowCheck } from "../../components/select_boxes.ts";
import type { Selection } from "../../lib/selection.ts";

/** One column: its header and how a job fills its cell. */
interface Column {
  label: string;
  className?: string;
  cell(job: Job, listed: JobState): ComponentChildren;
}

/** The first line of a message; the cell's CSS truncates it further. */
function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return end === -1 ? text : `${text.slice(0, end)} …`;
}

/** A long text cut to one line, the whole of it on hover; `—` when there is none. */
function Excerpt({ text }: { text: string | null }) {
  if (!text) return html`<span class="muted">—</span>`;
  return html`<span class="excerpt" title=${text}>${firstLine(text)}</span>`;
}

const ID: Column = {
  label: "ID",
  className: "job-id-cell",
  // A live event may have moved the job on since the list loaded: say where to.
  cell: (job, listed) =>
    html`
      <${ShortId} id=${job.id} href=${href("jobs", job.id)} what="job" />
      ${job.state !== listed
        ? html`
          <${StateBadge} state=${job.state} />
        `
        : null}
    `,
};
const CREATED: Column = {
  label: "Created",
  cell: (job) => html`<${Time} at=${job.timestamps.created} />`,
};
const STARTED: Column = {
  label: "Started",
  cell: (job) => html`<${Time} at=${job.timestamps.processed} />`,
};
const DUE: Column = { label: "Due", cell: (job) => html`<${Time} at=${job.timestamps.runAt} />` };
const FINISHED: Column = {
  label: "Finished",
  cell: (job) => html`<${Time} at=${job.timestamps.finished} />`,
};
const ATTEMPTS: Column = {
  label: "Attempts",
  className: "num",
  cell: (job) => `${formatCount(job.attempt)} / ${formatCount(job.maxAttempts)}`,
};
const ERROR: Column = {
  label: "Error",
  className: "wide",
  cell: (job) =>
    html`<${ErrorText} text=${job.error} fallback=${html`<span class="muted">—</span>`} />`,
};
const REASON: Column = {
  label: "Reason",
  className: "wide",
  cell: (job) => html`<${Excerpt} text=${job.cancelReason} />`,
};
const PROGRESS: Column = {
  label: "Progress",
  className: "progress-cell",
  cell: (job) => html`<${ProgressCell} progress=${job.progress} />`,
};

const COLUMNS: Record<JobState, readonly Column[]> = {
  waiting: [ID, CREATED, ATTEMPTS, PROGRESS],
  active: [ID, CREATED, STARTED, ATTEMPTS, PROGRESS],
  delayed: [ID, CREATED, DUE, ATTEMPTS, PROGRESS],
  retrying: [ID, CREATED, DUE, ATTEMPTS, ERROR, PROGRESS],
  failed: [ID, CREATED, FINISHED, ATTEMPTS, ERROR, PROGRESS],
  completed: [ID, CREATED, FINISHED, ATTEMPTS, PROGRESS],
  cancelled: [ID, CREATED, FINISHED, ATTEMPTS, REASON, PROGRESS],
  expired: [ID, CREATED, FINISHED, ATTEMPTS, PROGRESS],
};

/** The locks of the listed jobs as read, and when the reading arrived. */
export interface ListedLocks {
  list: readonly JobLock[];
  receivedAt: number;
}

/** The lock column of active jobs. */
function lockColumn({ list, receivedAt }: ListedLocks): Column {
  const byId = new Map(list.map((lock) => [lock.id, lock]));
  return {
    label: "Lock",
    className: "lock-cell",
    cell: (job) => html`<${LockCell} lock=${byId.get(job.id)} receivedAt=${receivedAt} />`,
  };
}

/** The checkbox column: one box per row, and the page's box in the header. */
function selectColumn(selection: Selection): Column {
  return {
    label: "",
    className: "select-cell",
    cell: (job) => html`<${RowCheck} id=${job.id} selection=${selection} />`,
  };
}

/** The per-row actions column. */
function actionsColumn(actions: (job: Job) => ComponentChildren): Column {
  return { label: "Actions", className: "row-actions", cell: (job) => actions(job) };
}

/**
 * The jobs of one state; `state` is the state they were listed for. With
 * `locks` (active jobs), a column shows each job's lock; with `selection`,
 * a first column of checkboxes; with `actions`, a last column of buttons.
 */
export function JobTable(
  { jobs, state, locks, selection, actions }: {
    jobs: readonly Job[];
    state: JobState;
    locks?: ListedLocks;
    selection?: Selection;
    actions?: (job: Job) => ComponentChildren;
  },
) {
  const columns = [
    ...(selection ? [selectColumn(selection)] : []),
    ...COLUMNS[state],
    ...(locks ? [lockColumn(locks)] : []),
    ...(actions ? [actionsColumn(actions)] : []),
  ];
  return html`
    <${ScrollArea}>
      <table class="table cards job-table">
        <thead>
          <tr>
            ${selection
              ? html`
                <th scope="col" class="select-cell">
                  <${PageCheck} rows=${jobs} selection=${selection} />
                </th>
              `
              : null}
            ${columns.filter((column) => column.className !== "select-cell").map((column) =>
              html`<th key=${column.label} scope="col" class=${column.className}>${column.label}</th>`
            )}
          </tr>
        </thead>
        <tbody>
          ${jobs.map((job) =>
            html`
              <tr key=${job.id} data-job=${job.id}>
                ${columns.map((column) =>
                  html`
                    <td
                      key=${column.label}
                      class=${column.className}
                      data-label=${column === ID || column.label === "" ? undefined : column.label}
                    >${column.cell(job, state)}</td>
                  `
                )}
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}
