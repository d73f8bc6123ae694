/**
 * The Attempts tab: every run of the job (see `runs.ts`), then each attempt
 * that failed, numbered 1..n in order, with the error its stream entry
 * carried (the last one: the job's), read from the task's event stream when
 * the tab opens. The stream keeps only its newest
 * ~10,000 entries, so the tab says when older attempts may be missing. Each
 * attempt links to the job's trace (one dispatch, one trace: every attempt
 * runs in it) and to its logs over its window.
 *
 * @module
 */
import { ErrorBanner } from "../../components/error_banner.ts";
import { Time } from "../../components/time.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { Runs } from "./runs.ts";
import { Outward } from "./trace_links.ts";
import type { AttemptHistory, JobDetail } from "./types.ts";

/** Why an attempt shows no error: taskora's `retrying` entry carries none, only the job's last error is kept. */
function missingError(attempt: AttemptHistory["attempts"][number]): string {
  return attempt.outcome === "retrying"
    ? "(not recorded: taskora keeps only the error of a job's last attempt)"
    : "(no error recorded)";
}

/** The runs and the failed attempts of `job`, oldest first. */
export function Attempts({ job }: { job: JobDetail }) {
  const { api } = useBoard();
  const { data, error } = useLiveResource(
    (signal) => api.get("/jobs/{jobId}/attempts", { params: { jobId: job.id }, signal }),
    [job.id],
    {
      relevant: (event) =>
        event.id === job.id && /active|completed|failed|retrying|stalled/.test(event.kind),
    },
  );
  if (!data) {
    return html`
      <${ErrorBanner} error=${error} />
      <p class="muted" role="status">Loading attempts…</p>
    `;
  }
  return html`
    <${ErrorBanner} error=${error} />
    ${data.complete ? null : html`<p class="job-note">
      The task's event stream keeps only its newest entries (looked at ${
      formatCount(data.scanned)
    }):
      earlier attempts may be missing.
    </p>`}
    <${Runs} history=${data} />
    ${data.attempts.length === 0
      ? html`<p class="empty">No failed attempt ${data.complete ? "recorded" : "found"}.</p>`
      : html`
        <ol class="attempts">
          ${data.attempts.map((attempt) =>
            html`
              <li key=${attempt.at}>
                <strong>Attempt ${attempt.attempt}</strong>
                <span class="muted"> · ${attempt.outcome === "failed"
                  ? "failed for good"
                  : "failed, retried"} · <${Time} at=${attempt.at} /></span>
                <${Outward}
                  url=${job.links.trace}
                  label="Trace"
                  title=${`Open the trace of attempt ${attempt.attempt}`}
                />
                <${Outward}
                  url=${attempt.logs}
                  label="Logs"
                  title=${`Open the logs of attempt ${attempt.attempt}`}
                />
                ${attempt.error === null
                  ? html`<p class="job-note">${missingError(attempt)}</p>`
                  : html`<pre class="code-block error-block">${attempt.error}</pre>`}
              </li>
            `
          )}
        </ol>
      `}
  `;
}
