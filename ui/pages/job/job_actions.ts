/**
 * The job's buttons: Retry and Edit and retry (see `edit_retry.ts`) for a
 * failed or cancelled job, Run again (a new job with the same data, after a
 * confirmation; then its page) for any job, Cancel (after a confirmation
 * that takes an optional reason) for one that has not finished. Only the
 * actions the API accepts for the job's state are shown, and none on a
 * read-only board.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { confirmAction, confirmWithNote } from "../../components/confirm_dialog.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { EditRetryDialog } from "./edit_retry.ts";
import {
  CANCELLABLE_STATES,
  type JobActionResponse,
  type JobDetail,
  RETRYABLE_STATES,
} from "./types.ts";
import { may } from "../../lib/permissions.ts";

function cancelMessage(job: JobDetail): string {
  return job.state === "active"
    ? "The job is running: its worker is told to stop, and the job becomes cancelled when it does."
    : `The ${job.state} job is removed from the queue and will not run.`;
}

/** The actions on one job; `onDone` reloads the page after an action. */
export function JobActions({ job, onDone }: { job: JobDetail; onDone(): void }) {
  const { api, config, router } = useBoard();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  if (config.readOnly) return null;
  const mayRetry = may(config, "job.retry");

  const act = async (
    action: "retry" | "cancel",
    body: { reason?: string },
    success: (r: JobActionResponse) => string,
  ) => {
    setBusy(true);
    await runAction(
      () => api.send("POST", `/jobs/{jobId}/${action}`, { params: { jobId: job.id }, body }),
      success,
    );
    setBusy(false);
    onDone();
  };

  const retry = () => act("retry", {}, () => "Job sent back to waiting");
  const rerun = async () => {
    const confirmed = await confirmAction({
      title: "Run this job again?",
      message: `A new ${job.task} job is dispatched with this job's data; this one stays as it is.`,
      confirmLabel: "Run again",
    });
    if (!confirmed) return;
    setBusy(true);
    const made = await runAction(
      () => api.send("POST", "/jobs/{jobId}/rerun", { params: { jobId: job.id } }),
      (r) =>
        `New job dispatched (version ${r.version}` +
        (r.expireAtFrom === "not-set" ? ", with no TTL: it never expires" : "") + "): showing it",
    );
    setBusy(false);
    if (made) router.navigate(`/${href("jobs", made.jobId)}`);
  };
  const cancel = async () => {
    const reason = await confirmWithNote({
      title: "Cancel this job?",
      message: cancelMessage(job),
      noteLabel: "Reason (optional, kept on the job)",
      confirmLabel: "Cancel job",
      keepLabel: "Keep job",
      tone: "danger",
    });
    if (reason === null) return;
    await act(
      "cancel",
      reason ? { reason } : {},
      (r) =>
        r.to === "cancelling" ? "Cancel requested: the worker will stop the job" : "Job cancelled",
    );
  };

  // An active job already asked to stop has nothing more to cancel.
  const cancellable = (CANCELLABLE_STATES as readonly string[]).includes(job.state) &&
    job.timestamps.cancelled === null && may(config, "job.cancel");
  const retryable = (RETRYABLE_STATES as readonly string[]).includes(job.state) &&
    (mayRetry || may(config, "job.retry-edited"));
  return html`
    <div class="detail-actions">
      ${retryable
        ? html`
          ${mayRetry
            ? html`
              <button type="button" class="btn btn-primary" disabled=${busy}
                onClick=${retry}>Retry</button>
            `
            : null}
          ${config.editableData && may(config, "job.retry-edited")
            ? html`
              <button type="button" class="btn" disabled=${busy}
                onClick=${() => setEditing(true)}>Edit and retry</button>
            `
            : null}
        `
        : null}
      ${may(config, "job.rerun")
        ? html`<button type="button" class="btn" disabled=${busy} onClick=${rerun}>Run again</button>`
        : null}
      ${cancellable
        ? html`
          <button type="button" class="btn btn-danger" disabled=${busy}
            onClick=${cancel}>Cancel</button>
        `
        : null}
      ${editing && retryable
        ? html`<${EditRetryDialog} job=${job} onClose=${(retried: boolean) => {
          setEditing(false);
          if (retried) onDone();
        }} />`
        : null}
    </div>
  `;
}
