/**
 * A bulk operation under way, then its report: how many done of how many
 * (a filter's: how far its scan of the range is), how many skipped (a worker moved them on first), a Cancel button while it
 * runs, and the board process running it (and the one it was taken over
 * from). Progress comes from the event stream (`bulk:progress`); while no
 * frame arrives (no stream, or another replica's operation) the operation
 * is read every 2 s.
 *
 * @module
 */
import { useEffect, useState } from "preact/hooks";
import { toastError } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import {
  ACTION_WORDS,
  type BulkOperation,
  cancelBulk,
  operationOutcome,
} from "../../lib/bulk_request.ts";

/** How often the operation is read while no stream frame says it. */
const POLL_MS = 2000;

/** Which board process runs it, and the one it was taken over from (its process died or closed). */
function runnerNote(operation: BulkOperation, started: BulkOperation) {
  if (operation.runner === null) return null;
  const from = started.runner !== null && started.runner !== operation.runner
    ? html`
      · taken over from <code>${started.runner}</code>
    `
    : null;
  return html`<p class="bulk-runner muted">Run by <code>${operation.runner}</code>${from}</p>`;
}

/** The operation's panel; `onEnded` is called once when it ends, `onDismiss` closes it. */
export function BulkProgress(
  { started, onEnded, onDismiss }: {
    started: BulkOperation;
    onEnded(): void;
    onDismiss(): void;
  },
) {
  const { api, live } = useBoard();
  const [polled, setPolled] = useState<BulkOperation>(started);
  const framed = live.bulk.value?.id === started.id ? live.bulk.value : null;
  // The newer of the two readings: progress only grows.
  const operation = framed && (framed.status !== "running" || framed.done >= polled.done)
    ? framed
    : polled;
  const running = operation.status === "running";
  const [cancelling, setCancelling] = useState(false);

  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => {
      api.get("/operations/{id}", { params: { id: started.id } }).then(
        setPolled,
        () => {},
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [started.id, running]);
  useEffect(() => {
    if (!running) onEnded();
  }, [running]);

  const cancel = async () => {
    setCancelling(true);
    try {
      setPolled(await cancelBulk(api, started.id));
    } catch (error) {
      toastError(error);
    }
    setCancelling(false);
  };
  const handled = operation.scanned ?? operation.done + operation.skipped;
  return html`
    <div class=${`bulk-progress bulk-${operation.status}`} role="status" aria-live="polite">
      <div class="bulk-progress-line">
        <strong>${ACTION_WORDS[operation.action].label}</strong>
        <span class="bulk-outcome">${operationOutcome(operation)}</span>
        ${running
          ? html`
            <button type="button" class="btn btn-small" disabled=${cancelling}
              onClick=${cancel}>${cancelling ? "Cancelling…" : "Cancel operation"}</button>
          `
          : html`<button type="button" class="btn btn-small" onClick=${onDismiss}>Dismiss</button>`}
      </div>
      <progress
        class="bulk-meter"
        max=${Math.max(operation.total, 1)}
        value=${operation.status === "done"
          ? Math.max(operation.total, 1)
          : Math.min(handled, operation.total)}
        aria-label="Progress of the operation"
      ></progress>
      ${runnerNote(operation, started)}
      ${!running && operation.skippedJobs.length > 0
        ? html`
          <details class="bulk-skipped">
            <summary>Skipped jobs</summary>
            <ul>
              ${operation.skippedJobs.map((job) =>
                html`<li key=${job.id}><a class="task-link mono" href=${href("jobs", job.id)}>${
                  shortId(
                    job.id,
                  )
                }</a> ${job.state ? `was ${job.state}` : "was gone"}</li>`
              )}
              ${operation.skipped > operation.skippedJobs.length ? html`<li>…</li>` : null}
            </ul>
          </details>
        `
        : null}
    </div>
  `;
}
