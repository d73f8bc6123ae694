/**
 * The notices sent, newest first: the rule, firing or resolved (or a
 * repeat), what it was about (a grouped notice: how many alerts), its figure, and per sink whether it was
 * delivered; a failed delivery is marked and says why, a muted notice names
 * its silence.
 *
 * @module
 */
import { LongName } from "../../components/long_text.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { Time } from "../../components/time.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import { AlertState } from "./rule_table.ts";
import { formatFigure } from "./threshold.ts";
import type { AlertHistoryEntry } from "./types.ts";

function Deliveries({ entry }: { entry: AlertHistoryEntry }) {
  if (entry.silencedBy !== null) {
    return html`<span class="muted" title=${`Silence ${entry.silencedBy}`}>muted</span>`;
  }
  return html`<span class="alerts-deliveries">${
    entry.deliveries.map((d) =>
      html`<span key=${d.sink} class=${`alerts-delivery is-${d.outcome}`} title=${
        d.error ??
          `${d.outcome} after ${d.attempts} ${d.attempts === 1 ? "attempt" : "attempts"}`
      }>${d.sink}: ${d.outcome}${
        d.error ? html`<span class="alerts-failure"> (${d.error})</span>` : null
      }</span>`
    )
  }</span>`;
}

/** What a notice is about: a task, a schedule, the store, or (grouped) how many alerts. */
function About({ notice }: { notice: AlertHistoryEntry["notice"] }) {
  if (notice.count !== undefined) {
    return html`<span title=${notice.summary}>${notice.count} alerts</span>`;
  }
  if (notice.task !== null) {
    return html`<a class="task-link" href=${href("tasks", notice.task)}>${notice.task}</a>`;
  }
  return notice.schedule ?? html`<span class="muted">the store</span>`;
}

/** The history table; `filtered` says the entries are those of the filters only. */
export function HistoryTable(
  { entries, filtered = false }: { entries: AlertHistoryEntry[]; filtered?: boolean },
) {
  if (entries.length === 0) {
    return html`<p class="empty">${
      filtered ? "No notice matches the filters." : "No notice sent yet."
    }</p>`;
  }
  return html`
    <${ScrollArea}>
      <table class="table cards alerts-history">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Rule</th>
            <th scope="col">State</th>
            <th scope="col">About</th>
            <th scope="col" class="num">Figure</th>
            <th scope="col">Sinks</th>
          </tr>
        </thead>
        <tbody>
          ${entries.map(({ notice, ...entry }, index) => {
            const failed = entry.deliveries.some((d) => d.outcome === "failed");
            return html`
              <tr key=${`${notice.key}:${notice.at}:${index}`} class=${failed
                ? "is-failed"
                : undefined}>
                <td data-label="When">
                  <${Time} at=${notice.at} />
                </td>
                <th scope="row">
                  <${LongName} name=${notice.rule} />
                </th>
                <td data-label="State">
                  <${AlertState} state=${notice.state} />
                  ${notice.test || notice.repeat
                    ? html`<span class="muted alerts-note">${
                      notice.test ? "test" : "repeat"
                    }</span>`
                    : null}
                </td>
                <td data-label="About">
                  <${About} notice=${notice} />
                </td>
                <td data-label="Figure" class="num">${formatFigure(notice.figure, notice.unit)}</td>
                <td data-label="Sinks">
                  <${Deliveries} entry=${{ notice, ...entry }} />
                </td>
              </tr>
            `;
          })}
        </tbody>
      </table>
      <//>
  `;
}
