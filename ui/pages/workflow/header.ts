/**
 * The head of the workflow page: name, state, when it started, how many
 * nodes are in each state, why it failed or was cancelled, its result, and
 * the cancel button.
 *
 * @module
 */
import { PayloadsHidden, useMayReadPayloads } from "../../components/payloads_hidden.ts";
import { StateBadge } from "../../components/state_badge.ts";
import { Time } from "../../components/time.ts";
import { formatCount } from "../../lib/format.ts";
import { html } from "../../lib/html.ts";
import { CancelWorkflowButton } from "./cancel_button.ts";
import { NODE_STATES, type WorkflowDetail } from "./types.ts";

/** Node counts per state, in the order nodes go through them; unknown states last. */
function countByState(workflow: WorkflowDetail): [string, number][] {
  const counts = new Map<string, number>();
  for (const node of workflow.nodes) counts.set(node.state, (counts.get(node.state) ?? 0) + 1);
  const rank = (state: string) => {
    const index = (NODE_STATES as readonly string[]).indexOf(state);
    return index < 0 ? NODE_STATES.length : index;
  };
  return [...counts].sort(([a], [b]) => rank(a) - rank(b));
}

/** The result as indented JSON (strings as they are). */
function formatResult(result: unknown): string {
  return typeof result === "string" ? result : JSON.stringify(result, null, 2);
}

/** The header card; `onCancelled` reloads the page after a cancel. */
export function WorkflowHeader(
  { workflow, onCancelled }: { workflow: WorkflowDetail; onCancelled(): void },
) {
  const payloads = useMayReadPayloads();
  return html`
    <section class="card wf-head" aria-label="Workflow">
      <div class="wf-head-top">
        <div class="wf-head-title">
          <a class="wf-back" href="workflows">← Workflows</a>
          <h2 class="wf-name">
            <span>${workflow.name ?? "Unnamed workflow"}</span>
            <${StateBadge} state=${workflow.state} />
          </h2>
          <code class="wf-id muted">${workflow.id}</code>
        </div>
        <${CancelWorkflowButton} workflow=${workflow} onCancelled=${onCancelled} />
      </div>
      <dl class="facts wf-facts">
        <div><dt>Created</dt><dd><${Time} at=${workflow.createdAt} /></dd></div>
        <div><dt>Nodes</dt><dd>${formatCount(workflow.nodeCount)}</dd></div>
        <div>
          <dt>By state</dt>
          <dd>
            <ul class="wf-count-list">
              ${countByState(workflow).map(([state, count]) =>
                html`<li key=${state} class=${`wf-count state-${state}`}>
                  <span class="dot"></span>${formatCount(count)} ${state}
                </li>`
              )}
            </ul>
          </dd>
        </div>
      </dl>
      ${workflow.error
        ? html`<p class=${`wf-reason wf-reason-${workflow.state}`} role="note"><strong>${
          workflow.state === "failed" ? "Failed" : "Cancelled"
        }:</strong> ${workflow.error}</p>`
        : null}
      ${workflow.result !== null && workflow.result !== undefined
        ? html`
          <details class="wf-result">
            <summary>Result</summary>
            <pre>${formatResult(workflow.result)}</pre>
          </details>
        `
        : null}
      ${payloads
        ? null
        : html`<${PayloadsHidden} subject="Its result and its nodes' data and results are" />`}
    </section>
  `;
}
