/**
 * The shapes the workflow API answers with: the contract's (type-only, so
 * no server code reaches the bundle), and the node states the graph knows
 * how to draw.
 *
 * @module
 */
import type { WorkflowState } from "../../../src/contract/states.ts";
import type {
  WorkflowCancelResponse,
  WorkflowDetail,
  WorkflowNodeState,
  WorkflowSummary,
} from "../../../src/contract/workflows.ts";

export { WORKFLOW_STATES } from "../../../src/contract/states.ts";
export type { WorkflowCancelResponse, WorkflowDetail, WorkflowState, WorkflowSummary };

/** One node of a workflow and how far it got. */
export type WorkflowNode = WorkflowNodeState;

/** The node states taskora writes, in the order a node goes through them. */
export const NODE_STATES = ["pending", "active", "completed", "failed", "cancelled"] as const;
