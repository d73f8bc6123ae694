/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function WorkflowsPage() {
  return html`
    <div class="card empty-state">
      <p class="muted">WorkflowsPage  is being built.</p>
    </div>
  `;
}
