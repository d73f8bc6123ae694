/**
 * Every node of a workflow as a table row: its task, state, job, what it
 * waits for and, when any node failed, the errors. The same facts as the graph, in a form that can
 * be read top to bottom, searched and copied (job ids, whole errors).
 *
 * @module
 */
import { Card } from "../../components/card.ts";
import { ScrollArea } from "../../components/scroll_area.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { ShortId } from "../../components/short_id.ts";
import { ErrorText, LongName } from "../../components/long_text.ts";
import { shortId } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { href } from "../../lib/router.ts";
import type { WorkflowNode } from "./types.ts";

/** `#0, #2`, or `—` for a node that starts the workflow. */
function waitsFor(deps: readonly number[]): string {
  return deps.length ? deps.map((dep) => `#${dep}`).join(", ") : "—";
}

/** The node table in a card. */
export function NodeTable({ nodes }: { nodes: readonly WorkflowNode[] }) {
  const hasErrors = nodes.some((node) => node.error);
  return html`
    <${Card} title="Nodes" flush=${true}>
      <${ScrollArea}>
        <table class="table cards wf-node-table">
          <thead>
            <tr>
              <th scope="col" class="num">#</th>
              <th scope="col">Task</th>
              <th scope="col">State</th>
              <th scope="col">Job state</th>
              <th scope="col">Job</th>
              <th scope="col">Waits for</th>
              ${hasErrors ? html`<th scope="col">Error</th>` : null}
            </tr>
          </thead>
          <tbody>
            ${nodes.map((node) =>
              html`
                <tr key=${node.index}>
                  <td class="num muted" data-label="#">${node.index}</td>
                  <th scope="row" data-label="Task"><${LongName} name=${node.taskName} /></th>
                  <td data-label="State">
                    <${StateBadge} state=${node.state} />
                  </td>
                  <td data-label="Job state">
                    ${node.jobState
                      ? html`<${StateBadge} state=${node.jobState} />`
                      : node.notStarted
                      ? html`<span class="muted wf-not-started">${node.notStarted.summary}</span>`
                      : html`<span class="muted" title="removed by retention">—</span>`}
                  </td>
                  <td data-label="Job">
                    ${node.notStarted
                      ? html`<code class="mono" title=${node.jobId}>${shortId(node.jobId)}</code>`
                      : html`<${ShortId} id=${node.jobId} href=${
                        href("jobs", node.jobId)
                      } what="job" />`}
                  </td>
                  <td class="muted" data-label="Waits for">${waitsFor(node.deps)}</td>
                  ${hasErrors
                    ? html`
                      <td class="wf-node-error" data-label="Error">
                        <${ErrorText} text=${node.error} />
                      </td>
                    `
                    : null}
                </tr>
              `
            )}
          </tbody>
        </table>
        <//>
        <//>
  `;
}
