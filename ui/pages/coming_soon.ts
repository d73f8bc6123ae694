/**
 * Placeholder for pages that are not built yet.
 *
 * @module
 */
import { html } from "../lib/html.ts";

/** A short notice naming the page. */
export function ComingSoon({ label }: { label: string }) {
  return html`
    <div class="card placeholder">
      <h2 class="card-title">${label}</h2>
      <p class="muted">This view is not available yet.</p>
    </div>
  `;
}
