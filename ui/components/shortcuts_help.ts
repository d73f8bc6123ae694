/**
 * The list of keyboard shortcuts, in a modal `<dialog>` that `?` opens (and
 * Escape or the Close button closes). Rendered once by the shell.
 *
 * @module
 */
import { signal } from "@preact/signals";
import { useEffect, useRef } from "preact/hooks";
import { html } from "../lib/html.ts";

/** Whether the list is open; the `?` shortcut sets it. */
export const shortcutsOpen = signal(false);

/** The dialog, listing `pages` (label and digit) and the other keys. */
export function ShortcutsHelp({ pages }: { pages: readonly { label: string; key?: string }[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = shortcutsOpen.value;
  useEffect(() => {
    const el = dialog.current;
    if (open && el && !el.open) el.showModal();
    if (!open && el?.open) el.close();
  }, [open]);
  const keys: [string, string][] = [
    ...pages.flatMap(({ label, key }) => key ? [[key, `Open ${label}`] as [string, string]] : []),
    ["/", "Find a job by ID"],
    ["?", "Show this list"],
    ["Esc", "Close a dialog"],
  ];
  return html`
    <dialog ref=${dialog} class="confirm" aria-labelledby="shortcuts-title"
      onClose=${() => shortcutsOpen.value = false}>
      <h2 id="shortcuts-title" class="confirm-title">Keyboard shortcuts</h2>
      <dl class="shortcut-list">
        ${keys.map(([key, what]) =>
          html`
            <div key=${key}>
              <dt><kbd>${key}</kbd></dt>
              <dd>${what}</dd>
            </div>
          `
        )}
      </dl>
      <div class="confirm-actions">
        <button type="button" class="btn" onClick=${() =>
          shortcutsOpen.value = false}>Close</button>
      </div>
    </dialog>
  `;
}
