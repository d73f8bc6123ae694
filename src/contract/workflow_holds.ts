/**
 * Why a workflow node has no job yet: taskora dispatches a node's job only
 * once every node it depends on completed, so until then the job id the
 * graph names answers 404 and the job's own diagnosis cannot be read. The
 * node waits for its unfinished parents, or, once its workflow failed or
 * was cancelled, it never starts.
 *
 * @module
 */

import type { DiagnosisReason } from "./diagnosis.ts";
import type { WorkflowDetail, WorkflowNodeState } from "./workflows.ts";

/** `#1 square`: a node as a reason names it. */
const named = (node: WorkflowNodeState) => `#${node.index} ${node.taskName}`;

/**
 * Why `node` of `workflow` has not started, or null when it has a job or
 * may have had one (every parent completed: its job was dispatched, and
 * retention may have removed it since). A parent's state is its job's when
 * the job exists (a dispatched node reads `active` while its job waits).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { whyNotStarted } from "./workflow_holds.ts";
 * const node = (index: number, state: string, deps: number[]) => ({
 *   index, taskName: "square", jobId: `j${index}`, deps, state,
 *   jobState: state === "pending" ? null : ("active" as const),
 *   result: null, error: null, notStarted: null,
 * });
 * const nodes = [node(0, "active", []), node(1, "pending", [0])];
 * const reason = whyNotStarted({ state: "running", nodes }, nodes[1]);
 * assert.equal(reason?.summary, "it starts once its parent nodes complete: #0 square (active)");
 * ```
 */
export function whyNotStarted(
  workflow: Pick<WorkflowDetail, "state" | "nodes">,
  node: WorkflowNodeState,
): DiagnosisReason | null {
  if (node.jobState !== null) return null;
  const unfinished = node.deps
    .map((dep) => workflow.nodes[dep])
    .filter((parent) => parent !== undefined && parent.state !== "completed");
  if (unfinished.length === 0) return null;
  if (workflow.state === "running") {
    const shown = unfinished.map((parent) => [named(parent), parent.jobState ?? parent.state]);
    return {
      code: "workflowParents",
      summary: `it starts once its parent nodes complete: ${
        shown.map(([name, state]) => `${name} (${state})`).join(", ")
      }`,
      evidence: { parents: shown.map(([name, state]) => `${name}: ${state}`) },
    };
  }
  if (workflow.state === "failed") {
    // taskora marks every open node failed with the workflow; the one that failed has its error or job.
    const failedAt = workflow.nodes
      .filter((other) =>
        other.state === "failed" && (other.error !== null || other.jobState === "failed")
      )
      .map(named);
    return {
      code: "workflowEnded",
      summary: `its workflow failed${
        failedAt.length ? ` at ${failedAt.join(", ")}` : ""
      } before its parent nodes completed: it will never start`,
      evidence: { workflowState: "failed", failedAt },
    };
  }
  return {
    code: "workflowEnded",
    summary: `its workflow was ${workflow.state} before its parent nodes completed: ` +
      "it will never start",
    evidence: { workflowState: workflow.state },
  };
}

/** Sets each node's `notStarted` from the job states the source read into `workflow`. */
export function explainUnstarted(workflow: WorkflowDetail): WorkflowDetail {
  for (const node of workflow.nodes) node.notStarted = whyNotStarted(workflow, node);
  return workflow;
}
