/**
 * "Retry all failed": after a confirmation that says how many, sends every
 * failed job of the task back to waiting (`POST /tasks/{task}/retry-all`).
 *
 * @module
 */
import { useState } from "preact/hooks";
import { confirmAction } from "../../components/confirm_dialog.ts";
import { runAction } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";

/** The button; disabled while the task has no failed jobs. `onDone` reloads the page. */
export function RetryAllButton(
  { task, failed, onDone }: { task: string; failed: number; onDone(): void },
) {
  const { api } = useBoard();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    const confirmed = await confirmAction({
      title: "Retry all failed jobs?",
      message: `${formatCountOf(failed, "failed job")} of ${task} will be sent back to waiting ` +
        "and run again.",
      confirmLabel: "Retry all",
    });
    if (!confirmed) return;
    setBusy(true);
    await runAction(
      () => api.send("POST", "/tasks/{task}/retry-all", { params: { task } }),
      ({ retried }) => `Retried ${formatCountOf(retried, "job")}`,
    );
    setBusy(false);
    onDone();
  };
  return html`
    <button
      type="button"
      class="btn btn-primary"
      disabled=${busy || failed === 0}
      title=${failed === 0 ? "No failed jobs to retry" : undefined}
      onClick=${onClick}
    >Retry all failed</button>
  `;
}
