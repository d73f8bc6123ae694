/**
 * A JSON value pretty-printed as text in a `<pre>`: job data reaches the
 * page as text, never as markup.
 *
 * @module
 */
import { html } from "../../lib/html.ts";

/** The value indented by two spaces, or the `empty` notice when there is none. */
export function JsonBlock({ value, empty }: { value: unknown; empty: string }) {
  if (value === null || value === undefined) return html`<p class="empty">${empty}</p>`;
  return html`<pre class="code-block">${JSON.stringify(value, null, 2)}</pre>`;
}
