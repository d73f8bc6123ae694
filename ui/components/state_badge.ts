/**
 * A job or workflow state as a coloured pill, in the state palette every page
 * shares (`--st-<state>`).
 *
 * @module
 */
import { html } from "../lib/html.ts";

/** The pill for a state name (`failed`, `completed`, `running`, …). */
export function StateBadge({ state }: { state: string }) {
  return html`<span class=${`state-badge state-${state}`}>${state}</span>`;
}
