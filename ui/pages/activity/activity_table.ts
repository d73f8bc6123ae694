/**
 * The audit trail as a table, newest first: when, who, what, on what (a
 * link for a job or a workflow), how many, and the outcome with its code,
 * saying when an entry was written late and how many refusals of the
 * client before it went unrecorded.
 *
 * @module
 */
import { ScrollArea } from "../../components/scroll_area.ts";
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { AuditEntry } from "./types.ts";

/** The page a target of an action opens, when it has one. */
function targetHref(entry: AuditEntry): string | null {
  const kind = entry.action.split(".")[0];
  if (kind === "job" || kind === "dlq") {
    return entry.target === "*" ? null : href("jobs", entry.target);
  }
  if (kind === "workflow") return href("workflows", entry.target);
  if (kind === "task" && entry.task) return href("tasks", entry.task);
  return null;
}

function Verdict({ entry }: { entry: AuditEntry }) {
  if (entry.outcome === "ok") return html`<span class="activity-ok">ok</span>`;
  if (entry.outcome === "pending") {
    return html`
      <span class="activity-pending" title="The board never recorded how it ended">pending</span>
    `;
  }
  return html`
    <span class="activity-error" title=${entry.detail ?? ""}>${entry.code ?? "error"}</span>
  `;
}

function Outcome({ entry }: { entry: AuditEntry }) {
  return html`
    <${Verdict} entry=${entry} />
    ${entry.late === undefined ? null : html`
      <span class="activity-mark muted">written late, happened <${Time} at=${entry.late} /></span>
    `}
    ${entry.dropped
      ? html`
        <span class="activity-mark muted">${formatCount(
          entry.dropped,
        )} more of this client not recorded</span>
      `
      : null}
  `;
}

/** One row per entry. */
export function ActivityTable({ entries }: { entries: readonly AuditEntry[] }) {
  return html`
    <${ScrollArea}>
      <table class="table cards activity-table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">User</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col" class="num">Count</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          ${entries.map((entry) => {
            const link = targetHref(entry);
            return html`
              <tr key=${entry.id}>
                <td data-label="When">
                  <${Time} at=${entry.at} />
                </td>
                <td data-label="User">${entry.user}</td>
                <th scope="row" data-label="Action"><code>${entry.action}</code></th>
                <td data-label="Target" class="activity-target">
                  ${link ? html`<a href=${link}>${entry.target}</a>` : entry.target}
                  ${entry.task && entry.task !== entry.target
                    ? html`
                      <span class="muted">(${entry.task})</span>
                    `
                    : null}
                </td>
                <td class="num" data-label="Count">${entry.count === null
                  ? "–"
                  : formatCount(entry.count)}</td>
                <td data-label="Outcome">
                  <${Outcome} entry=${entry} />
                </td>
              </tr>
            `;
          })}
        </tbody>
      </table>
      <//>
  `;
}
