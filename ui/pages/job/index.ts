/**
 * The job page (`/jobs/{id}`): header with state and actions, the payload
 * tabs and the timeline; for a job taskora no longer holds, what the board's
 * history kept (`archived.ts`). It reloads when an event for this job arrives, and
 * when the count of its state in its task changes (a clean removes jobs
 * without events).
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { ApiError } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { taskCounts } from "../../lib/live.ts";
import { shortId } from "../../lib/format.ts";
import { usePageTitle } from "../../lib/page_title.ts";
import type { JobState } from "../../lib/types.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { NotFoundPage } from "../not_found.ts";
import { ArchivedJob } from "./archived.ts";
import { DetailTabs } from "./detail_tabs.ts";
import { DiagnosisCard } from "./diagnosis.ts";
import { JobHeader } from "./job_header.ts";
import { useJobLock } from "./job_liveness.ts";
import { TimelineCard } from "./timeline.ts";

/** The page of one job. */
export function JobPage({ id }: { id: string }) {
  const { api } = useBoard();
  const { data: job, error, loading, reload } = useLiveResource(
    (signal) => api.get("/jobs/{jobId}", { params: { jobId: id }, signal }),
    [id],
    {
      relevant: (event) => event.id === id,
      follows: (stats, job) => taskCounts(stats, job.task)?.[job.state as JobState] ?? null,
    },
  );
  usePageTitle(`Job ${shortId(job?.id ?? id)}`, job?.task);
  const lock = useJobLock(job);
  if (error instanceof ApiError && error.code === "JOB_NOT_FOUND") {
    return html`
      <${NotFoundPage}
        heading=${html`No job with ID <code>${id}</code>`}
        detail="It may have been cleaned, the ID is mistyped, or it names a workflow node that has not started (its workflow page says why)."
      />
    `;
  }
  if (!job) {
    return html`
      <${ErrorBanner} error=${error} />
      ${loading ? html`<p class="muted" role="status">Loading job…</p>` : null}
    `;
  }
  if (job.archived) {
    return html`
      <${ErrorBanner} error=${error} />
      <${ArchivedJob} job=${job} />
    `;
  }
  return html`
    <${ErrorBanner} error=${error} />
    <${JobHeader} job=${job} lock=${lock} onChanged=${reload} />
    <${DiagnosisCard} job=${job} lock=${lock} />
    <div class="job-grid">
      <${DetailTabs} job=${job} />
      <${TimelineCard} job=${job} />
    </div>
  `;
}
