/**
 * What a job logged: one row per line, its level coloured, its time (with
 * the day when not today), its message, and its structured meta folded away
 * in a `<details>`.
 *
 * @module
 */
import { ScrollArea } from "../../components/scroll_area.ts";
import { formatDateTime, formatLogTime } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { zoneLabel } from "../../lib/time_zone.ts";
import type { LogEntry } from "./types.ts";

function LogTime({ at }: { at: number }) {
  return html`<time datetime=${new Date(at).toISOString()} title=${formatDateTime(at)}>${
    formatLogTime(at, Date.now())
  }</time>`;
}

/** The log table, oldest line first; a notice when the job logged nothing. */
export function LogsTable({ logs }: { logs: readonly LogEntry[] }) {
  if (logs.length === 0) return html`<p class="empty">This job has not logged anything.</p>`;
  return html`
    <${ScrollArea}>
      <table class="table cards logs">
        <thead>
          <tr>${[`Time (${zoneLabel(Date.now())})`, "Level", "Message"].map((label) =>
            html`<th key=${label} scope="col">${label}</th>`
          )}</tr>
        </thead>
        <tbody>
          ${logs.map((entry, index) =>
            html`
              <tr key=${index}>
                <td class="log-time" data-label="Time">
                  <${LogTime} at=${entry.timestamp} />
                </td>
                <td data-label="Level"><span class=${`log-level log-${entry.level}`}>${entry
                  .level}</span></td>
                <td class="log-message">
                  <span>${entry.message}</span>
                  ${entry.meta === undefined ? null : html`
                    <details class="log-meta">
                      <summary>meta</summary>
                      <pre class="code-block">${JSON.stringify(entry.meta, null, 2)}</pre>
                    </details>
                  `}
                </td>
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}
