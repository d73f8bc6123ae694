/**
 * An id as a table shows it: its first 8 characters and `…`, linked, the
 * whole id in its tooltip and accessible name, and a copy button that shows
 * on hover or focus (always on a touch screen).
 *
 * @module
 */
import { html } from "../lib/html.ts";
import { CopyButton } from "./copy_button.ts";

/** Characters of an id shown before the ellipsis. */
const SHOWN = 8;

/** `7deea1e0…` for a longer id, the id itself when it is short. */
export function shortId(id: string): string {
  return id.length > SHOWN + 1 ? `${id.slice(0, SHOWN)}…` : id;
}

/** A short id linked to `href`, with its copy button; `what` names it ("job", "workflow"). */
export function ShortId({ id, href, what }: { id: string; href: string; what: string }) {
  return html`
    <span class="short-id">
      <a class="task-link mono" href=${href} title=${id} aria-label=${id}
        data-id=${id}>${shortId(
          id,
        )}</a>
      <${CopyButton} text=${id} label=${`Copy ${what} ID`} />
    </span>
  `;
}
