/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function MigrationsPage() {
  return html`
    <div class="card empty-state">
      <p class="muted">MigrationsPage  is being built.</p>
    </div>
  `;
}
