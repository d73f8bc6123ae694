/**
 * The friendly not-found page: for a path the board does not have, and for
 * a task, job or workflow the store does not hold. It says what was not
 * found and links to where the user can look instead.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** What was not found, why it may be gone, and where to go instead. */
export interface NotFoundProps {
  /** The heading (`No job with ID …`). */
  heading?: ComponentChildren;
  /** Why, in a sentence. */
  detail?: string;
  /** A link (relative to `<base href>`) and its label. */
  back?: { href: string; label: string };
}

/** Says what does not exist and links onwards (by default, back to the overview). */
export function NotFoundPage(
  {
    heading = "No such page",
    detail = "This address is not part of the board.",
    back = { href: "./", label: "Back to the overview" },
  }: NotFoundProps,
) {
  return html`
    <div class="card empty-state">
      <h2 class="card-title">${heading}</h2>
      <p class="muted">${detail}</p>
      <p><a href=${back.href}>${back.label}</a></p>
    </div>
  `;
}
