/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function TaskPage({ task }: { task: string }) {
  return html`
    <div class="card empty-state">
      <p class="muted">TaskPage ${task} is being built.</p>
    </div>
  `;
}
