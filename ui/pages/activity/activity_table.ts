/**
 * The audit trail as a table, newest first: when, who (marked "via MCP" for
 * an agent's tool call), what, on what (a
 * link for a job, a workflow or a task; long names and ids cut short), how many, and the outcome with its code,
 * saying when an entry was written late and how many refusals of the
 * client before it went unrecorded.
 *
 * @module
 */
import { LongName } from "../../components/long_text.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { ShortId } from "../../components/short_id.ts";
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { AuditEntry } from "./types.ts";

/**
 * What an action was done on: a job or workflow by its short id, a task by
 * its name linked, anything else by its name; a long one cut short (the
 * whole of it in its tooltip), so the outcome stays in view.
 */
function Target({ entry }: { entry: AuditEntry }) {
  const kind = entry.action.split(".")[0];
  const { target } = entry;
  if ((kind === "job" || kind === "dlq") && target !== "*") {
    return html`<${ShortId} id=${target} href=${href("jobs", target)} what="job" />`;
  }
  if (kind === "workflow") {
    return html`<${ShortId} id=${target} href=${href("workflows", target)} what="workflow" />`;
  }
  if (kind === "task" && entry.task) {
    return html`<${LongName} name=${target} href=${href("tasks", entry.task)} />`;
  }
  return html`<${LongName} name=${target} />`;
}

/** An entry an agent's tool call of `{basePath}/mcp` made: the user is the one it acts as. */
function ViaMcp() {
  return html`
    <span class="badge activity-via" title="Made by an agent through the MCP endpoint">via MCP</span>
  `;
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
            return html`
              <tr key=${entry.id}>
                <td data-label="When">
                  <${Time} at=${entry.at} />
                </td>
                <td data-label="User">
                  <${LongName} name=${entry.user} />
                  ${entry.via === "mcp" ? html`<${ViaMcp} />` : null}
                </td>
                <th scope="row" data-label="Action"><code>${entry.action}</code></th>
                <td data-label="Target" class="activity-target">
                  <${Target} entry=${entry} />
                  ${entry.task && entry.task !== entry.target
                    ? html`
                      <span class="muted">(<${LongName} name=${entry.task} />)</span>
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
