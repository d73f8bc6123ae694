/**
 * A titled panel: the building block of every page.
 *
 * @module
 */
import type { ComponentChildren } from "preact";
import { html } from "../lib/html.ts";

/** A card with a heading, optional header actions and a body. */
export function Card(
  { title, actions, children, flush = false }: {
    title: string;
    actions?: ComponentChildren;
    children?: ComponentChildren;
    flush?: boolean;
  },
) {
  return html`
    <section class="card">
      <header class="card-head">
        <h2 class="card-title">${title}</h2>
        ${actions ? html`<div class="card-actions">${actions}</div>` : null}
      </header>
      <div class=${flush ? "card-body flush" : "card-body"}>${children}</div>
    </section>
  `;
}
