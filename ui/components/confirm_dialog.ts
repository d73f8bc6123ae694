/**
 * The confirmation before an action: a modal `<dialog>` (focus trapped,
 * Escape backs out) opened by {@link confirmAction}, which resolves to
 * whether the user confirmed, or by {@link confirmWithNote}, which also
 * takes an optional note (a cancel reason) and resolves to it.
 *
 * A destructive (`danger`) dialog starts on its safe button, so Enter or a
 * stray Space backs out, and that button names what it keeps ("Keep job"):
 * next to "Cancel job", a plain "Cancel" would read as the action itself.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { html } from "../lib/html.ts";

/** What the dialog asks. */
export type ConfirmRequest =
  & {
    title: string;
    /** The consequence, in words ("12 failed jobs will be retried."). */
    message: string;
    /** The confirm button's label ("Delete schedule"). */
    confirmLabel: string;
  }
  & (
    | { tone?: "default" }
    | {
      /** Paints the confirm button red and focuses the safe one. */
      tone: "danger";
      /** The safe button's label, naming what it keeps ("Keep schedule"). */
      keepLabel: string;
    }
  );

/** A confirmation that also offers an optional, free-text note. */
export type NoteRequest = ConfirmRequest & {
  /** The note field's label ("Reason (optional)"). */
  noteLabel: string;
};

/** The longest note accepted: the API's limit for a free-text field such as a cancel reason. */
const NOTE_MAX_LENGTH = 1000;

type Pending = ConfirmRequest & {
  noteLabel?: string;
  /** The trimmed note when confirmed (empty when none was typed), or null. */
  resolve(note: string | null): void;
};

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
  const danger = request?.tone === "danger";
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
              <button type="button" class="btn" autofocus=${danger} onClick=${() =>
                settle(null)}>${danger ? request.keepLabel : "Cancel"}</button>
              <button
                type="submit"
                class=${danger ? "btn btn-danger" : "btn btn-primary"}
                autofocus=${!danger}
              >${request.confirmLabel}</button>
            </div>
          </form>
        `}
    </dialog>
  `;
}
