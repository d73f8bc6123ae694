/**
 * The key to the graph: what each node colour and each kind of curve means.
 *
 * @module
 */
import { html } from "../../lib/html.ts";
import { NODE_STATES } from "./types.ts";

/** Node states as coloured swatches, then the two edge styles that need explaining. */
export function GraphLegend() {
  return html`
    <ul class="wf-legend" aria-label="Legend">
      ${NODE_STATES.map((state) =>
        html`<li key=${state} class=${`wf-legend-node state-${state}`}>${state}</li>`
      )}
      <li class="wf-legend-edge wf-legend-flowing">into an active node</li>
      <li class="wf-legend-edge wf-legend-waiting">dependency not done</li>
    </ul>
  `;
}
