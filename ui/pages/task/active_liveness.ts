/**
 * The active tab's liveness: each listed job's lock (time left, or
 * "stalled?" when it is gone), the task's stalled set, and who leads the
 * schedulers, all as read with their age. Only the jobs of the page on
 * screen are asked about.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { ReadAge, SchedulerLeaderNote } from "../../components/liveness.ts";
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

/** The stalled set, in a line: how many, and which (linked). */
function StalledSet({ liveness }: { liveness: Received<TaskLivenessResponse> }) {
  if (!liveness.known) {
    return html`<span class="muted">Locks: not known. ${liveness.reason}.</span>`;
  }
  const { ids, total } = liveness.stalled;
  if (total === 0) {
    return html`<span>Stalled set empty <${ReadAge} receivedAt=${liveness.receivedAt} /></span>`;
  }
  return html`
    <span class="stalled-set"
      title="Not renewed since the last stall check">
      Stalled set: ${formatCountOf(total, "job")}${" "}
      ${ids.map((id, i) =>
        html`${i ? ", " : ""}<a class="task-link mono" href=${href("jobs", id)}>${shortId(id)}</a>`
      )}${ids.length < total ? ", …" : ""} <${ReadAge} receivedAt=${liveness.receivedAt} />
    </span>
  `;
}

/** The active jobs with their locks, under a line on the stalled set and the scheduler. */
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
      ${data ? html`<${StalledSet} liveness=${data} />` : null}
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
