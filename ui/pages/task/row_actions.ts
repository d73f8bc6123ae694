/**
 * The actions of one row of a job list, each on that job alone (counted
 * and confirmed as a bulk action of one). Wide screens and phone cards show
 * them as buttons; between those widths the error column needs the room,
 * so a "⋯" button opens them as a small menu.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import type { Job } from "../job/types.ts";
import { actionsFor, confirmAndStart } from "./bulk_bar.ts";
import { ACTION_WORDS, type BulkOperation } from "../../lib/bulk_request.ts";

/** The buttons and the menu of one row. */
function RowActions(
  { task, job, onStarted }: { task: string; job: Job; onStarted(op: BulkOperation): void },
) {
  const { api } = useBoard();
  const [open, setOpen] = useState(false);
  const menu = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      const outside = event.type === "click" && !menu.current?.contains(event.target as Node);
      if (outside || (event as KeyboardEvent).key === "Escape") setOpen(false);
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, [open]);

  const buttons = (role?: string) =>
    actionsFor(job.state).map((action) =>
      html`
        <button key=${action} type="button" class="btn btn-small" role=${role}
          aria-label=${`${ACTION_WORDS[action].label} job ${job.id}`}
          onClick=${async () => {
            setOpen(false);
            const what = `job ${job.id}`;
            const started = await confirmAndStart(api, task, action, { task, ids: [job.id] }, what);
            if (started) onStarted(started);
          }}>${ACTION_WORDS[action].label}</button>
      `
    );
  return html`
    <span class="row-buttons">${buttons()}</span>
    <span class="row-menu" ref=${menu}>
      <button type="button" class="btn btn-small row-menu-toggle" aria-haspopup="menu"
        aria-expanded=${open} aria-label=${`Actions on job ${job.id}`}
        onClick=${() => setOpen(!open)}>⋯</button>
      ${open ? html`<span class="row-menu-items" role="menu">${buttons("menuitem")}</span>` : null}
    </span>
  `;
}

/** The row-actions cell of a list whose operations are reported to `onStarted`. */
export function rowActionsOf(
  task: string,
  onStarted: (operation: BulkOperation) => void,
): (job: Job) => ComponentChildren {
  return (job) => html`<${RowActions} task=${task} job=${job} onStarted=${onStarted} />`;
}
