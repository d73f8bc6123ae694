/**
 * Silences: what each mutes (a rule, a task, or everything), until when,
 * who set it and why.
 *
 * @module
 */
import { ScrollArea } from "../../components/scroll_area.ts";
import { Time } from "../../components/time.ts";
import { html } from "../../lib/html.ts";
import type { AlertSilence } from "./types.ts";

/** What a silence mutes, in words. */
export function scopeText(scope: AlertSilence["scope"]): string {
  if (scope === "all") return "every alert";
  return "rule" in scope ? `rule ${scope.rule}` : `task ${scope.task}`;
}

/** The silences in force. */
export function SilenceList({ silences }: { silences: AlertSilence[] }) {
  if (silences.length === 0) return html`<p class="empty">No silence: every alert is told.</p>`;
  return html`
    <${ScrollArea}>
      <table class="table cards alerts-silences">
        <thead>
          <tr>
            <th scope="col">Mutes</th>
            <th scope="col">Until</th>
            <th scope="col">Reason</th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          ${silences.map((silence) =>
            html`
              <tr key=${silence.id}>
                <th scope="row">${scopeText(silence.scope)}</th>
                <td data-label="Until">
                  <${Time} at=${silence.until} />
                </td>
                <td data-label="Reason" class="alerts-reason">${silence.reason}</td>
                <td data-label="By">${silence.author} <span class="muted"><${Time}
                  at=${silence.createdAt} /></span></td>
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}
