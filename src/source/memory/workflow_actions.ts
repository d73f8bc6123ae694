/**
 * Cancelling a workflow in a memory store, as taskora's `WorkflowHandle.cancel`
 * does it: the cancelWorkflow script on the workflow hash (the workflow and
 * its unfinished nodes become cancelled, so nothing more is dispatched), then
 * a cancel of each of those nodes' jobs, which cancels a job at once when it
 * has not started and signals its worker when it runs.
 *
 * @module
 */

import type { WorkflowCancelResult } from "../types.ts";
import type { MemoryStore } from "./store.ts";
import { cancelWorkflow as cancelWorkflowHash } from "./workflows.ts";
import { cannotCancelWorkflow, workflowNotFound } from "../refusals.ts";

/** The cancel reason node jobs get when none is given (taskora's default). */
export const DEFAULT_NODE_CANCEL_REASON = "workflow cancelled";

/** Options of {@link cancelWorkflow}. */
export interface CancelWorkflowOptions {
  /**
   * Stamp `cancelledAt` on node jobs cancelled at once, as the board's cancel
   * does (default true); the simulator's own cancels pass false, as taskora's.
   */
  stampCancelledAt?: boolean;
}

/**
 * Cancels a running workflow. Nodes never dispatched (no job) and node jobs
 * not yet started count as `cancelled`; running node jobs, flagged for their
 * workers, as `signalled`; finished nodes and jobs keep their state.
 *
 * @throws {BoardError} `WORKFLOW_NOT_FOUND` for an unknown id;
 * `INVALID_STATE` naming the state when the workflow is no longer running.
 */
export function cancelWorkflow(
  store: MemoryStore,
  id: string,
  reason?: string,
  options: CancelWorkflowOptions = {},
): WorkflowCancelResult {
  const hash = store.workflows.get(id);
  if (!hash?.state || !hash.graph) {
    throw workflowNotFound(id);
  }
  if (hash.state !== "running") {
    throw cannotCancelWorkflow(id, hash.state);
  }
  const stampCancelledAt = options.stampCancelledAt ?? true;
  let cancelled = 0;
  let signalled = 0;
  for (const node of cancelWorkflowHash(store, id, reason ?? "")) {
    if (!store.tasks.get(node.task)?.jobs.has(node.jobId)) {
      cancelled++; // never dispatched: the cancelled workflow will not dispatch it
      continue;
    }
    const outcome = store.cancel(node.task, node.jobId, reason ?? DEFAULT_NODE_CANCEL_REASON, {
      stampCancelledAt,
    });
    if (outcome === "cancelled") cancelled++;
    else if (outcome === "flagged") signalled++;
  }
  return { cancelled, signalled };
}
