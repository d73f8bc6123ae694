/**
 * The sinks the board tells (by name and type: never their addresses), each
 * with a "Send a test notice" button for a user allowed `alerts.update`,
 * and what became of the last test: delivered, or failed and why.
 *
 * @module
 */
import { useState } from "preact/hooks";
import { toastError } from "../../components/toasts.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatCountOf } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import type { AlertsOverview, TestNoticeResponse } from "./types.ts";

function Outcome({ result }: { result: TestNoticeResponse | "sending" | undefined }) {
  if (result === undefined) return null;
  if (result === "sending") return html`<span class="muted" role="status">Sending…</span>`;
  const attempts = formatCountOf(result.attempts, "attempt");
  return result.outcome === "delivered"
    ? html`
      <span class="status status-ok" role="status">delivered</span>
      <span class="muted">${attempts}</span>
    `
    : html`
      <span class="status status-bad" role="status">failed</span>
      <span class="alerts-failure">${result.reason ?? ""} (${attempts})</span>
    `;
}

/** The sinks list; `canTest` shows the test buttons. */
export function SinkList(
  { sinks, canTest }: { sinks: AlertsOverview["sinks"]; canTest: boolean },
) {
  const { api } = useBoard();
  const [results, setResults] = useState<Record<string, TestNoticeResponse | "sending">>({});
  if (sinks.length === 0) return html`<p class="empty">No sink is configured.</p>`;

  const test = async (sink: string) => {
    setResults((r) => ({ ...r, [sink]: "sending" }));
    try {
      const result = await api.send("POST", "/alerts/test", { body: { sink } });
      setResults((r) => ({ ...r, [sink]: result }));
    } catch (error) {
      setResults(({ [sink]: _, ...rest }) => rest);
      toastError(error);
    }
  };

  return html`
    <ul class="alerts-sink-list">
      ${sinks.map((sink) =>
        html`
          <li key=${sink.name} class="alerts-sink">
            <span class="alerts-sink-name">${sink.name}</span>
            <span class="muted">${sink.type}</span>
            <span class="alerts-sink-outcome"><${Outcome} result=${results[sink.name]} /></span>
            ${canTest
              ? html`
                <button type="button" class="btn btn-small"
                  disabled=${results[sink.name] === "sending"}
                  aria-label=${`Send a test notice to ${sink.name}`}
                  onClick=${() => test(sink.name)}>Send a test notice</button>
              `
              : null}
          </li>
        `
      )}
    </ul>
  `;
}
