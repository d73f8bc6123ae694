/**
 * The job's buttons: Retry for a failed or cancelled job, Cancel (after a
 * confirmation that takes an optional reason) for one that has not finished. Only the actions the API
 * accepts for the job's state are shown, and none on a read-only board.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { confirmWithNote } from "../../components/confirm_dialog.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { CANCELLABLE_STATES, type Job, type JobActionResponse, RETRYABLE_STATES } from "./types.ts";

function cancelMessage(job: Job): string {
  return job.state === "active"
    ? "The job is running: its worker is told to stop, and the job becomes cancelled when it does."
    : `The ${job.state} job is removed from the queue and will not run.`;
}

/** Retry and Cancel for one job; `onDone` reloads the page after an action. */
export function JobActions({ job, onDone }: { job: Job; onDone(): void }) {
  const { api, config } = useBoard();
  const [busy, setBusy] = useState(false);
  if (config.readOnly) return null;

  const act = async (
    action: "retry" | "cancel",
    body: { reason?: string },
    success: (r: JobActionResponse) => string,
  ) => {
    setBusy(true);
    await runAction(
      () => api.send<JobActionResponse>("POST", href("jobs", job.id, action), body),
      success,
    );
    setBusy(false);
    onDone();
  };

  const retry = () => act("retry", {}, () => "Job sent back to waiting");
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
    job.timestamps.cancelled === null;
  return html`
    <div class="detail-actions">
      ${(RETRYABLE_STATES as readonly string[]).includes(job.state)
        ? html`
          <button type="button" class="btn btn-primary" disabled=${busy}
            onClick=${retry}>Retry</button>
        `
        : null}
      ${cancellable
        ? html`
          <button type="button" class="btn btn-danger" disabled=${busy}
            onClick=${cancel}>Cancel</button>
        `
        : null}
    </div>
  `;
}
