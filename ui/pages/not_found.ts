/**
 * The page for a path the board does not have.
 *
 * @module
 */
import { html } from "../lib/html.ts";

/** Says the page does not exist and links back to the overview. */
export function NotFoundPage() {
  return html`
    <div class="card empty-state">
      <h2 class="card-title">No such page</h2>
      <p class="muted">This address is not part of the board.</p>
      <p><a href="./">Back to the overview</a></p>
    </div>
  `;
}
