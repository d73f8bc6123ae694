/**
 * The top of the job page: the job's ID and state, the facts an operator
 * checks first (task, attempt, version, when it was created), why it was
 * cancelled, the workflow it belongs to, its version against its task's,
 * an active job's lock, the schedule that ran it with the scheduler leader,
 * links to its trace and logs, and its actions.
 *
 * @module
 */
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { Fact } from "../../components/fact.ts";
import { href } from "../../lib/router.ts";
import { JobActions } from "./job_actions.ts";
import { JobTitle } from "./job_title.ts";
import { JobLockFact, type JobLockReading, JobVersion, SchedulerLine } from "./job_liveness.ts";
import { TraceLinks } from "./trace_links.ts";
import type { JobDetail } from "./types.ts";

/** The header card; `onChanged` reloads the job after an action. */
export function JobHeader(
  { job, lock, onChanged }: { job: JobDetail; lock: JobLockReading | null; onChanged(): void },
) {
  const taskHref = href("tasks", job.task);
  return html`
    <section class="card detail-head">
      <div class="detail-head-top">
        <${JobTitle} job=${job} />
        <${JobActions} job=${job} onDone=${onChanged} />
      </div>
      <dl class="facts job-facts">
        <${Fact} label="Task"><a class="task-link" href=${taskHref}>${job.task}</a><//>
        <${Fact} label="Attempt">${formatCount(job.attempt)} / ${formatCount(job.maxAttempts)}<//>
        <${Fact} label="Version"><${JobVersion} job=${job} /><//>
        <${Fact} label="Priority">${formatCount(job.priority)}<//>
        <${Fact} label="Created"><${Time} at=${job.timestamps.created} /><//>
        ${job.stalledCount > 0
          ? html`<${Fact} label="Stalled">${formatCount(job.stalledCount)}×<//>`
          : null}
        ${job.state === "active" ? html`<${JobLockFact} reading=${lock} />` : null}
      </dl>
      ${job.cancelReason
        ? html`<p class="job-note">Cancel reason: <q>${job.cancelReason}</q></p>`
        : null}
      ${job.workflow
        ? html`
          <p class="job-note">
            Part of workflow <a class="task-link mono" href=${href(
              "workflows",
              job.workflow.id,
            )}>${job.workflow.id}</a>, node #${job.workflow.nodeIndex}
          </p>
        `
        : null}
      <${SchedulerLine} job=${job} />
      <${TraceLinks} links=${job.links} />
    </section>
  `;
}
