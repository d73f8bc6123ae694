/**
 * The cancel-workflow button: asks first, then cancels every node that has
 * not finished (waiting jobs at once, active ones by signalling their
 * workers) and reports how many. Hidden in read-only mode and once the
 * workflow has finished.
 *
 * @module
 */
import { confirmAction } from "../../components/confirm_dialog.ts";
import { countOf } from "../../../src/contract/plural.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import type { WorkflowCancelResponse, WorkflowDetail } from "./types.ts";
import { may } from "../../lib/permissions.ts";

/** "2 node jobs cancelled, 1 signalled to stop." */
function cancelledMessage({ cancelled, signalled }: WorkflowCancelResponse): string {
  const jobs = `${countOf(cancelled, "node job")} cancelled`;
  return `Workflow cancelled: ${jobs}, ${signalled} signalled to stop.`;
}

/** The button; `onCancelled` runs after a successful cancel (to reload). */
export function CancelWorkflowButton(
  { workflow, onCancelled }: { workflow: WorkflowDetail; onCancelled(): void },
) {
  const { api, config } = useBoard();
  if (!may(config, "workflow.cancel") || workflow.state !== "running") return null;

  const cancel = async () => {
    const confirmed = await confirmAction({
      title: "Cancel this workflow?",
      message: "Nodes that have not started are cancelled, running ones are told to stop. " +
        "Finished nodes keep their results. This cannot be undone.",
      confirmLabel: "Cancel workflow",
      keepLabel: "Keep workflow",
      tone: "danger",
    });
    if (!confirmed) return;
    await runAction(
      () => api.send("POST", "/workflows/{id}/cancel", { params: { id: workflow.id } }),
      cancelledMessage,
    );
    onCancelled();
  };
  return html`<button type="button" class="btn btn-danger" onClick=${cancel}>Cancel workflow</button>`;
}
