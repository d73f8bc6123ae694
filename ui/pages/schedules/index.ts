/**
 * Placeholder while this view is being built.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** Placeholder. */
export function SchedulesPage() {
  return html`
    <div class="card empty-state">
      <p class="muted">SchedulesPage  is being built.</p>
    </div>
  `;
}
