/**
 * The job page's title: the link back to its task, its ID with a copy
 * button, its state, and what the page adds beside them (a badge).
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { CopyButton } from "../../components/copy_button.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { JobDetail } from "./types.ts";

/** The title of `job`'s page, `children` after its state. */
export function JobTitle({ job, children }: { job: JobDetail; children?: ComponentChildren }) {
  return html`
    <div class="detail-title">
      <a class="back-link" href=${href("tasks", job.task)}>← ${job.task}</a>
      <div class="job-title-row">
        <h2 class="job-id">${job.id}</h2>
        <${CopyButton} text=${job.id} label="Copy job ID" />
        <${StateBadge} state=${job.state} />
        ${children}
      </div>
    </div>
  `;
}
