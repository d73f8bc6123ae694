/**
 * The sinks the board tells, by name and type: never their addresses.
 *
 * @module
 */
import { html } from "../../lib/html.ts";
import type { AlertsOverview } from "./types.ts";

/** The sinks list. */
export function SinkList({ sinks }: { sinks: AlertsOverview["sinks"] }) {
  if (sinks.length === 0) return html`<p class="empty">No sink is configured.</p>`;

  return html`
    <ul class="alerts-sink-list">
      ${sinks.map((sink) =>
        html`
          <li key=${sink.name} class="alerts-sink">
            <span class="alerts-sink-name">${sink.name}</span>
            <span class="muted">${sink.type}</span>
          </li>
        `
      )}
    </ul>
  `;
}
