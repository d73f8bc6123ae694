/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function ThroughputCard() {
  return html`
    <div class="card empty-state">
      <p class="muted">ThroughputCard  is being built.</p>
    </div>
  `;
}
