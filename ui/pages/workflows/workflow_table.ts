/**
 * The workflow list as a table: name (a link to the graph), state, the
 * tasks it runs, how many nodes, and when it started.
 *
 * @module
 */
import { ShortId } from "../../components/short_id.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { WorkflowSummary } from "../workflow/types.ts";

/** One table row per workflow, newest first as the API sends them. */
export function WorkflowTable({ workflows }: { workflows: readonly WorkflowSummary[] }) {
  return html`
    <${ScrollArea}>
      <table class="table cards wf-table">
        <thead>
          <tr>
            <th scope="col">Workflow</th>
            <th scope="col">State</th>
            <th scope="col">Tasks</th>
            <th scope="col" class="num">Nodes</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          ${workflows.map((workflow) =>
            html`
              <tr key=${workflow.id}>
                <th scope="row">
                  <a class="task-link wf-table-name long-name" href=${href(
                    "workflows",
                    workflow.id,
                  )}
                    title=${workflow.name ?? undefined}>${workflow.name ?? "Unnamed workflow"}</a>
                  <${ShortId} id=${workflow.id} href=${href("workflows", workflow.id)}
                    what="workflow" />
                </th>
                <td data-label="State">
                  <${StateBadge} state=${workflow.state} />
                </td>
                <td data-label="Tasks">
                  <ul class="wf-task-chips">
                    ${workflow.tasks.map((task) =>
                      html`<li key=${task} class="wf-task-chip">${task}</li>`
                    )}
                  </ul>
                </td>
                <td class="num" data-label="Nodes">${formatCount(workflow.nodeCount)}</td>
                <td data-label="Created">
                  <${Time} at=${workflow.createdAt} />
                </td>
              </tr>
            `
          )}
        </tbody>
      </table>
      <//>
  `;
}
