/**
 * Workflows: `GET /workflows` (the list), `GET /workflows/{id}` (one graph
 * with every node's state) and what cancelling one did.
 *
 * @module
 */

import type { DiagnosisReason } from "./diagnosis.ts";
import type { JobState, WorkflowState } from "./states.ts";

/** A workflow as listed. */
export interface WorkflowSummary {
  /** The workflow id. */
  id: string;
  /** Its name, e.g. `chain(a → b)`, when taskora stored one. */
  name: string | null;
  /** The workflow's overall state. */
  state: WorkflowState;
  /** When it was dispatched (ms). */
  createdAt: number;
  /** How many jobs the graph holds. */
  nodeCount: number;
  /** Distinct task names of the nodes, in node order. */
  tasks: string[];
}

/** One node of a workflow graph, as taskora stores it, its values decoded. */
export interface WorkflowGraphNode {
  /** The node's task. */
  taskName: string;
  /** Indexes of the nodes it waits for. */
  deps: number[];
  /** The job id the node runs as. */
  jobId: string;
  /** The task version the node was dispatched with. */
  _v: number;
  /** The node's own input, decoded, when it has one (others take their deps' results). */
  data?: unknown;
}

/** A workflow's graph: its nodes, the nodes nothing depends on, and its name. */
export interface WorkflowGraph {
  /** Every node, by index. */
  nodes: WorkflowGraphNode[];
  /** Indexes of the terminal nodes, whose results make the workflow's. */
  terminal: number[];
  /** The workflow's name, when taskora stored one. */
  name?: string;
}

/** A node's run state inside a workflow. */
export interface WorkflowNodeState {
  /** Position in the graph. */
  index: number;
  /** The node's task. */
  taskName: string;
  /** The job id the node runs as. */
  jobId: string;
  /** Indexes of the nodes it waits for. */
  deps: number[];
  /**
   * The node's state as the workflow sees it (`pending` until taskora writes
   * one; `active` once its job is dispatched, whether it runs yet or not).
   */
  state: string;
  /**
   * The state of the node's own job (a dispatched node's job may still be
   * waiting, delayed or retrying), or null when there is no such job: never
   * dispatched, or already removed by retention.
   */
  jobState: JobState | null;
  /** The node's result, decoded. */
  result: unknown;
  /** The node's error, if it failed. */
  error: string | null;
  /**
   * Why the node has no job yet (see `workflow_holds.ts`): it waits for its
   * unfinished parents, or its workflow ended before them; null when it has
   * a job, or had one.
   */
  notStarted: DiagnosisReason | null;
}

/** A workflow in full: the answer of `GET /workflows/{id}`. */
export interface WorkflowDetail extends WorkflowSummary {
  /** The graph as taskora stored it. */
  graph: WorkflowGraph;
  /** Every node's run state, by index. */
  nodes: WorkflowNodeState[];
  /** The workflow's result, decoded. */
  result: unknown;
  /** Why it failed or was cancelled. */
  error: string | null;
}

/** What cancelling a workflow did. */
export interface WorkflowCancelResult {
  /** Node jobs cancelled at once (waiting, delayed, retrying, or never dispatched). */
  cancelled: number;
  /** Active node jobs whose workers were signalled to stop. */
  signalled: number;
}

/** The answer of `POST /workflows/{id}/cancel`. */
export interface WorkflowCancelResponse extends WorkflowCancelResult {
  /** Always true: a refused action is an error answer. */
  ok: true;
  /** The workflow id. */
  id: string;
}
