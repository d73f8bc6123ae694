/**
 * What a job logged: one row per line, its level coloured, its time (with
 * the day when not today), its message, and its structured meta folded away
 * in a `<details>` as a lazy tree (a meta too big for the page loads on
 * demand).
 *
 * @module
 */
import { useState } from "preact/hooks";
import { JsonTree } from "../../components/json_tree.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { useBoard } from "../../lib/board_context.ts";
import { formatBytes, formatDateTime, formatLogTime } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { zoneLabel } from "../../lib/time_zone.ts";
import type { LogLine } from "./types.ts";

function LogTime({ at }: { at: number }) {
  return html`<time datetime=${new Date(at).toISOString()} title=${formatDateTime(at)}>${
    formatLogTime(at, Date.now())
  }</time>`;
}

/** A meta left out for its size: its size and a button that fetches it. */
function BigMeta({ jobId, line }: { jobId: string; line: LogLine }) {
  const { api } = useBoard();
  const [meta, setMeta] = useState<unknown>(undefined);
  if (meta !== undefined) return html`<${JsonTree} value=${meta} label="Log meta" />`;
  const load = async () =>
    setMeta(
      await api.get("/jobs/{jobId}/logs/{index}/meta", {
        params: { jobId, index: String(line.index) },
      }),
    );
  return html`<button type="button" class="link-button" onClick=${load}>Load meta (${
    formatBytes(line.metaSize?.bytes ?? 0)
  })</button>`;
}

/** A line's meta folded away; its tree is built only once it is opened. */
function LogMeta({ jobId, line }: { jobId: string; line: LogLine }) {
  const [open, setOpen] = useState(false);
  return html`
    <details class="log-meta" onToggle=${(e: Event) =>
      setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>meta</summary>
      ${!open
        ? null
        : line.metaSize
        ? html`<${BigMeta} jobId=${jobId} line=${line} />`
        : html`<${JsonTree} value=${line.meta} label="Log meta" />`}
    </details>
  `;
}

/** The log table, oldest line first; a notice when the job logged nothing. */
export function LogsTable({ logs, jobId }: { logs: readonly LogLine[]; jobId: string }) {
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
          ${logs.map((entry) =>
            html`
              <tr key=${entry.index}>
                <td class="log-time" data-label="Time">
                  <${LogTime} at=${entry.timestamp} />
                </td>
                <td data-label="Level"><span class=${`log-level log-${entry.level}`}>${entry
                  .level}</span></td>
                <td class="log-message">
                  <span>${entry.message}</span>
                  ${entry.meta === undefined && !entry.metaSize
                    ? null
                    : html`<${LogMeta} jobId=${jobId} line=${entry} />`}
                </td>
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}
