/**
 * Long texts in table cells: a name cut to one line with an ellipsis, and
 * an error wrapped between words to at most three lines; each whole in its
 * tooltip, so neither widens the table past its card nor hides a column.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** A name on one line, cut short with `…` when it does not fit; `href` makes it a link. */
export function LongName({ name, href }: { name: string; href?: string }) {
  return href
    ? html`
      <a class="task-link long-name" href=${href} title=${name}
        data-name=${name}>${name}</a>
    `
    : html`<span class="long-name" title=${name} data-name=${name}>${name}</span>`;
}

/** An error wrapped to three lines at most, or `fallback` when there is none. */
export function ErrorText(
  { text, fallback = null }: { text: string | null; fallback?: ComponentChildren },
) {
  if (!text) return fallback;
  return html`<span class="error-text" title=${text} data-error>${text}</span>`;
}
