/**
 * The confirmation before a destructive action: a modal `<dialog>` (focus
 * trapped, Escape cancels) opened by {@link confirmAction}, which resolves
 * to whether the user confirmed, or by {@link confirmWithNote}, which also
 * takes an optional note (a cancel reason) and resolves to it.
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

/** A confirmation that also offers an optional, free-text note. */
export interface NoteRequest extends ConfirmRequest {
  /** The note field's label ("Reason (optional)"). */
  noteLabel: string;
}

/** The longest note accepted: the API's limit for a free-text field such as a cancel reason. */
const NOTE_MAX_LENGTH = 1000;

interface Pending extends ConfirmRequest {
  noteLabel?: string;
  /** The trimmed note when confirmed (empty when none was typed), or null. */
  resolve(note: string | null): void;
}

const pending = signal<Pending | null>(null);

function ask(request: ConfirmRequest & { noteLabel?: string }): Promise<string | null> {
  pending.value?.resolve(null);
  return new Promise((resolve) => {
    pending.value = { ...request, resolve };
  });
}

/** Asks for confirmation; resolves to true when the user confirms. */
export async function confirmAction(request: ConfirmRequest): Promise<boolean> {
  return (await ask(request)) !== null;
}

/**
 * Asks for confirmation and an optional note; resolves to the note, trimmed
 * (empty when left blank), or null when the user backs out.
 */
export function confirmWithNote(request: NoteRequest): Promise<string | null> {
  return ask(request);
}

function settle(note: string | null): void {
  const current = pending.value;
  pending.value = null;
  current?.resolve(note);
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
      onCancel=${() => settle(null)}
    >
      ${request &&
        html`
          <form method="dialog" onSubmit=${(e: Event) => {
            e.preventDefault();
            const note = new FormData(e.currentTarget as HTMLFormElement).get("note");
            settle(typeof note === "string" ? note.trim() : "");
          }}>
            <h2 id="confirm-title" class="confirm-title">${request.title}</h2>
            <p id="confirm-message" class="confirm-message">${request.message}</p>
            ${request.noteLabel
              ? html`
                <label class="field confirm-note">
                  <span class="field-label">${request.noteLabel}</span>
                  <input class="input" name="note" maxlength=${NOTE_MAX_LENGTH} autocomplete="off" />
                </label>
              `
              : null}
            <div class="confirm-actions">
              <button type="button" class="btn" onClick=${() => settle(null)}>Cancel</button>
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
