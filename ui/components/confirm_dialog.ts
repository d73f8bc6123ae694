/**
 * The confirmation before a destructive action: a modal `<dialog>` (focus
 * trapped, Escape cancels) opened by {@link confirmAction}, which resolves
 * to whether the user confirmed.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { html } from "../lib/html.ts";

/** What the dialog asks. */
export interface ConfirmRequest {
  title: string;
  /** The consequence, in words ("12 failed jobs will be retried."). */
  message: string;
  /** The confirm button's label ("Delete schedule"). */
  confirmLabel: string;
  /** `danger` paints the confirm button red. */
  tone?: "danger" | "default";
}

interface Pending extends ConfirmRequest {
  resolve(confirmed: boolean): void;
}

const pending = signal<Pending | null>(null);

/** Asks for confirmation; resolves to true when the user confirms. */
export function confirmAction(request: ConfirmRequest): Promise<boolean> {
  pending.value?.resolve(false);
  return new Promise((resolve) => {
    pending.value = { ...request, resolve };
  });
}

function settle(confirmed: boolean): void {
  const current = pending.value;
  pending.value = null;
  current?.resolve(confirmed);
}

/** The dialog; rendered once by the shell. */
export function ConfirmHost() {
  const dialog = useRef<HTMLDialogElement>(null);
  const request = pending.value;
  useEffect(() => {
    const el = dialog.current;
    if (!el) return;
    if (request && !el.open) el.showModal();
    if (!request && el.open) el.close();
  }, [request]);
  return html`
    <dialog
      ref=${dialog}
      class="confirm"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      onCancel=${() => settle(false)}
    >
      ${request &&
        html`
          <form method="dialog" onSubmit=${(e: Event) => {
            e.preventDefault();
            settle(true);
          }}>
            <h2 id="confirm-title" class="confirm-title">${request.title}</h2>
            <p id="confirm-message" class="confirm-message">${request.message}</p>
            <div class="confirm-actions">
              <button type="button" class="btn" onClick=${() => settle(false)}>Cancel</button>
              <button
                type="submit"
                class=${request.tone === "danger" ? "btn btn-danger" : "btn btn-primary"}
                autofocus
              >${request.confirmLabel}</button>
            </div>
          </form>
        `}
    </dialog>
  `;
}
