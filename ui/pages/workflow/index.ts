/**
 * The workflow page (`/workflows/{id}`): the header with the cancel button,
 * the graph, and the node table. It reloads when an event concerns one of
 * the workflow's node jobs (a node starting, finishing, failing, or the next
 * node being dispatched).
 *
 * @module
 */
import { useRef } from "preact/hooks";
import { Card } from "../../components/card.ts";
import { ErrorBanner } from "../../components/error_banner.ts";
import { ApiError } from "../../lib/api.ts";
import { useBoard } from "../../lib/board_context.ts";
import { html } from "../../lib/html.ts";
import { shortId } from "../../lib/format.ts";
import { usePageTitle } from "../../lib/page_title.ts";
import { useLiveResource } from "../../lib/use_live_resource.ts";
import { NotFoundPage } from "../not_found.ts";
import { WorkflowGraph } from "./graph.ts";
import { WorkflowHeader } from "./header.ts";
import { GraphLegend } from "./legend.ts";
import { NodeTable } from "./node_table.ts";

/** One workflow in full. */
export function WorkflowPage({ id }: { id: string }) {
  const { api } = useBoard();
  // Node job ids are assigned when the workflow is dispatched, so the first
  // answer already names every job whose events matter here.
  const nodeJobs = useRef(new Set<string>());
  const { data, error, loading, reload } = useLiveResource(
    async (signal) => {
      const workflow = await api.get("/workflows/{id}", {
        params: { id },
        signal,
      });
      nodeJobs.current = new Set(workflow.nodes.map((node) => node.jobId));
      return workflow;
    },
    [id],
    { relevant: (event) => nodeJobs.current.has(event.id) },
  );
  usePageTitle(`Workflow ${shortId(id)}`, data?.name);

  if (error instanceof ApiError && error.code === "WORKFLOW_NOT_FOUND") {
    return html`
      <${NotFoundPage}
        heading=${html`No workflow with ID <code>${id}</code>`}
        detail="It may have been removed by retention, or the ID is mistyped."
        back=${{ href: "workflows", label: "All workflows" }}
      />
    `;
  }
  if (!data) {
    return html`
      <${ErrorBanner} error=${error} />
      ${loading
        ? html`<div class="card empty-state muted" role="status">Loading workflow…</div>`
        : null}
    `;
  }
  return html`
    <${ErrorBanner} error=${error} />
    <${WorkflowHeader} workflow=${data} onCancelled=${reload} />
    <${Card} title="Graph" flush=${true} actions=${html`<${GraphLegend} />`}>
      <${WorkflowGraph} nodes=${data.nodes} />
      <//>
      <${NodeTable} nodes=${data.nodes} />
  `;
}
