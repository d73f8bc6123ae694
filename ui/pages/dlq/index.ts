/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function DlqPage() {
  return html`
    <div class="card empty-state">
      <p class="muted">DlqPage  is being built.</p>
    </div>
  `;
}
