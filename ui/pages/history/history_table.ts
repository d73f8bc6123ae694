/**
 * A page of the history search as a table: each job's id (linked to its
 * page), marked as a history row, its task, state, version, when it ended,
 * its attempts and its last attempt's error.
 *
 * @module
 */
import type { HistoryJobResponse } from "../../../src/contract/history.ts";
import { ErrorText, LongName } from "../../components/long_text.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { ShortId } from "../../components/short_id.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";

/** One row per job, newest first as the API gives them. */
export function HistoryTable({ jobs }: { jobs: readonly HistoryJobResponse[] }) {
  return html`
    <${ScrollArea}>
      <table class="table cards history-table">
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Task</th>
            <th scope="col">State</th>
            <th scope="col" class="num">Version</th>
            <th scope="col">Ended</th>
            <th scope="col" class="num">Attempts</th>
            <th scope="col">Last error</th>
          </tr>
        </thead>
        <tbody>
          ${jobs.map((job) =>
            html`
              <tr key=${`${job.task}/${job.id}`}>
                <th scope="row" data-label="Job">
                  <${ShortId} id=${job.id} href=${href("jobs", job.id)} what="job" />
                  <span class="archived-badge" title="A row of the board's history">History</span>
                </th>
                <td data-label="Task">
                  <${LongName} name=${job.task} />
                </td>
                <td data-label="State">
                  <${StateBadge} state=${job.state} />
                </td>
                <td class="num" data-label="Version">${job.version ?? "–"}</td>
                <td data-label="Ended">
                  <${Time} at=${job.finishedAt} />
                </td>
                <td class="num" data-label="Attempts">${formatCount(job.attempts.length)}</td>
                <td data-label="Last error">
                  <${ErrorText} text=${job.attempts.at(-1)?.error ?? null}
                    fallback=${html`<span class="muted">—</span>`} />
                </td>
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}
