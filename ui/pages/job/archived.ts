/**
 * The page of a job taskora no longer holds (`GET /jobs/{id}` answered from
 * the board's history, `archived` set): what the history kept, said to be
 * archived, with no action (retry, cancel and the rest act on a job taskora
 * holds), no logs and no live state; its attempts, each with its own error,
 * and its runs, from the Attempts answer.
 *
 * @module
 */
import { Fact } from "../../components/fact.ts";
import { Time } from "../../components/time.ts";
import { formatCount, formatElapsed } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { Attempts } from "./attempts.ts";
import { JobTitle } from "./job_title.ts";
import type { JobDetail } from "./types.ts";

/** A kept payload (present only when the history kept it and the user may read it). */
function KeptPayload({ label, value }: { label: string; value: unknown }) {
  if (value === undefined) return null;
  return html`
    <h3 class="archived-heading">${label}</h3>
    <pre class="code-block payload-preview">${JSON.stringify(value, null, 2)}</pre>
  `;
}

/** The archived job's page. */
export function ArchivedJob({ job }: { job: JobDetail }) {
  const { at, summary } = job.archived!;
  const taskHref = href("tasks", job.task);
  return html`
    <section class="card detail-head">
      <div class="detail-head-top">
        <${JobTitle} job=${job}><span class="archived-badge">Archived</span><//>
      </div>
      <p class="job-note archived-note" role="note">
        Archived: taskora removed it at some time after <${Time} at=${at} />, when the board
        last saw it end. This is what the board's history kept: a job taskora no longer holds
        has no actions, logs or live state.
      </p>
      <dl class="facts job-facts">
        <${Fact} label="Task"><a class="task-link" href=${taskHref}>${job.task}</a><//>
        <${Fact} label="Attempts">${formatCount(summary.attempts.length)}<//>
        ${summary.runs.length > 1
          ? html`<${Fact} label="Stall check re-ran it">${
            formatCount(summary.runs.length - 1)
          }×<//>`
          : null}
        <${Fact} label="Version">${summary.version === null ? "—" : `v${summary.version}`}<//>
        <${Fact} label="Created"><${Time} at=${summary.createdAt} /><//>
        <${Fact} label="Ended"><${Time} at=${summary.finishedAt} /><//>
        <${Fact} label="Waited">${summary.waitMs === null ? "—" : formatElapsed(summary.waitMs)}<//>
        <${Fact} label="Ran">${summary.runMs === null ? "—" : formatElapsed(summary.runMs)}<//>
      </dl>
    </section>
    <section class="card archived-body" aria-label="Attempts">
      <h3 class="archived-heading">Attempts</h3>
      <${Attempts} job=${job} />
      <${KeptPayload} label="Data" value=${summary.data} />
      <${KeptPayload} label="Result" value=${summary.result} />
    </section>
  `;
}
