/**
 * The active tab's liveness: each listed job's lock (time left, or
 * "stalled?" when it is gone), the task's active jobs without a lock (not
 * taskora's `:stalled` set: its stall check's candidates, running jobs
 * among them), and who leads the schedulers, all as read with their age.
 * Only the jobs of the page on screen are asked about.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { ReadAge, SchedulerLeaderNote, STALLED_HINT } from "../../components/liveness.ts";
import { STALLED_SCAN } from "../../../src/contract/liveness.ts";
import { formatCountOf, shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import {
  type Received,
  type TaskLivenessResponse,
  useSchedulerLeadership,
  useTaskLiveness,
} from "../../lib/liveness.ts";
import { href } from "../../lib/router.ts";
import type { Job } from "../job/types.ts";
import type { ComponentChildren } from "preact";
import { JobTable } from "./job_table.ts";
import type { Selection } from "../../lib/selection.ts";

/** The active jobs without a lock, in a line: how many, and which (linked). */
function StalledJobs({ liveness }: { liveness: Received<TaskLivenessResponse> }) {
  if (!liveness.known) {
    return html`<span class="muted">Locks: not known. ${liveness.reason}.</span>`;
  }
  const { ids, total, checked } = liveness.stalled;
  const among = checked === STALLED_SCAN ? ` of the ${checked} oldest` : "";
  if (total === 0) {
    return html`<span>Every active job${among} holds a lock <${ReadAge} receivedAt=${liveness.receivedAt} /></span>`;
  }
  return html`
    <span class="stalled-jobs" title=${STALLED_HINT}>
      Stalled: ${formatCountOf(total, "active job")}${among} without a lock${" "}
      ${ids.map((id, i) =>
        html`${i ? ", " : ""}<a class="task-link mono" href=${href("jobs", id)}>${shortId(id)}</a>`
      )} <${ReadAge} receivedAt=${liveness.receivedAt} />
    </span>
  `;
}

/** The active jobs with their locks, under a line on the stalled jobs and the scheduler. */
export function ActiveJobs(
  { task, jobs, selection, actions }: {
    task: string;
    jobs: readonly Job[];
    selection?: Selection;
    actions?: (job: Job) => ComponentChildren;
  },
) {
  const liveness = useTaskLiveness(task, jobs.map((job) => job.id));
  const leadership = useSchedulerLeadership();
  const data = liveness.data;
  return html`
    <${ErrorBanner} error=${liveness.error} />
    <div class="liveness-bar">
      ${data ? html`<${StalledJobs} liveness=${data} />` : null}
      <${SchedulerLeaderNote} leadership=${leadership.data} />
    </div>
    ${jobs.length === 0 ? html`<p class="empty">No active jobs</p>` : html`
      <${JobTable}
        jobs=${jobs}
        state="active"
        selection=${selection}
        actions=${actions}
        locks=${data?.known ? { list: data.locks, receivedAt: data.receivedAt } : undefined}
      />
    `}
  `;
}
