/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function JobPage({ id }: { id: string }) {
  return html`
    <div class="card empty-state">
      <p class="muted">JobPage ${id} is being built.</p>
    </div>
  `;
}
