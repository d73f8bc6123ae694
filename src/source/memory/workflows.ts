/**
 * Workflow transitions on the store's workflow hashes, doing what taskora's
 * workflow scripts do to `taskora:wf:{id}`: create (every node pending),
 * advance (a node completed: dispatch the nodes it unblocks, complete the
 * workflow when every terminal node is done), fail and cancel.
 *
 * Like the scripts, these only touch the hash and answer which node jobs to
 * dispatch or stop; the caller (the simulator's worker, later the board's
 * actions) enqueues or cancels those jobs.
 *
 * @module
 */

import type { StoredWorkflowGraph } from "../wire/decode.ts";
import type { MemoryStore } from "./store.ts";

/** A node job to dispatch: its graph entry and its input (serialized, as taskora passes it). */
export interface NodeDispatch {
  nodeIndex: number;
  taskName: string;
  jobId: string;
  _v: number;
  /** The job's data, serialized. */
  data: string;
}

/** A node job that was open when its workflow failed or was cancelled. */
export interface NodeJobRef {
  task: string;
  jobId: string;
}

function graphOf(hash: Record<string, string>): StoredWorkflowGraph {
  return JSON.parse(hash.graph) as StoredWorkflowGraph;
}

/** Nodes no other node depends on: the graph's terminal nodes. */
export function terminalNodes(nodes: readonly { deps: number[] }[]): number[] {
  const used = new Set(nodes.flatMap((node) => node.deps));
  return nodes.map((_, index) => index).filter((index) => !used.has(index));
}

/**
 * createWorkflow: writes the hash with every node pending, then marks the
 * root nodes (no deps) active and returns them for dispatch.
 */
export function createWorkflow(
  store: MemoryStore,
  id: string,
  graph: StoredWorkflowGraph,
): NodeDispatch[] {
  const hash: Record<string, string> = {
    graph: JSON.stringify(graph),
    state: "running",
    createdAt: String(store.now()),
  };
  graph.nodes.forEach((_, index) => hash[`n:${index}:state`] = "pending");
  store.workflows.set(id, hash);
  trimWorkflows(store);
  const roots: NodeDispatch[] = [];
  graph.nodes.forEach((node, index) => {
    if (node.deps.length > 0) return;
    hash[`n:${index}:state`] = "active";
    roots.push({
      nodeIndex: index,
      taskName: node.taskName,
      jobId: node.jobId,
      _v: node._v,
      data: node.data ?? "null",
    });
  });
  return roots;
}

/**
 * advanceWorkflow: node `nodeIndex` completed with `result` (serialized).
 * Returns the nodes to dispatch now; completes the workflow (result: the
 * terminal's result, or an array of them) once every terminal is completed.
 */
export function advanceWorkflow(
  store: MemoryStore,
  id: string,
  nodeIndex: number,
  result: string,
): NodeDispatch[] {
  const hash = store.workflows.get(id);
  if (!hash || hash.state !== "running") return [];
  hash[`n:${nodeIndex}:state`] = "completed";
  hash[`n:${nodeIndex}:result`] = result;
  const graph = graphOf(hash);
  const toDispatch: NodeDispatch[] = [];
  graph.nodes.forEach((node, index) => {
    if (hash[`n:${index}:state`] !== "pending" || !node.deps.includes(nodeIndex)) return;
    if (!node.deps.every((dep) => hash[`n:${dep}:state`] === "completed")) return;
    const data = node.data ??
      (node.deps.length === 1
        ? hash[`n:${node.deps[0]}:result`]
        : `[${node.deps.map((dep) => hash[`n:${dep}:result`]).join(",")}]`);
    hash[`n:${index}:state`] = "active";
    toDispatch.push({
      nodeIndex: index,
      taskName: node.taskName,
      jobId: node.jobId,
      _v: node._v,
      data,
    });
  });
  if (graph.terminal.every((index) => hash[`n:${index}:state`] === "completed")) {
    hash.state = "completed";
    hash.result = graph.terminal.length === 1
      ? hash[`n:${graph.terminal[0]}:result`]
      : `[${graph.terminal.map((index) => hash[`n:${index}:result`]).join(",")}]`;
  }
  return toDispatch;
}

/**
 * failWorkflow: node `nodeIndex` failed for good; the workflow fails and its
 * pending and active nodes are marked failed. Returns the active node jobs to stop.
 */
export function failWorkflow(
  store: MemoryStore,
  id: string,
  nodeIndex: number,
  error: string,
): NodeJobRef[] {
  const hash = store.workflows.get(id);
  if (!hash || hash.state !== "running") return [];
  Object.assign(hash, {
    [`n:${nodeIndex}:state`]: "failed",
    [`n:${nodeIndex}:error`]: error,
    state: "failed",
    error,
  });
  return settleOpenNodes(hash, "failed", nodeIndex);
}

/**
 * cancelWorkflow: the workflow and its unfinished nodes (pending, active, or
 * with no state written) are cancelled, `error` set to the reason when one is
 * given. Returns every node it cancelled, pending ones included: taskora
 * leaves a root node `pending` while its job waits or runs, so a pending node
 * may have a job to stop too. Nothing when the workflow is not running.
 */
export function cancelWorkflow(store: MemoryStore, id: string, reason = ""): NodeJobRef[] {
  const hash = store.workflows.get(id);
  if (!hash || hash.state !== "running") return [];
  hash.state = "cancelled";
  if (reason) hash.error = reason;
  const open: NodeJobRef[] = [];
  graphOf(hash).nodes.forEach((node, index) => {
    const state = hash[`n:${index}:state`];
    if (state !== undefined && state !== "pending" && state !== "active") return;
    hash[`n:${index}:state`] = "cancelled";
    open.push({ task: node.taskName, jobId: node.jobId });
  });
  return open;
}

function settleOpenNodes(
  hash: Record<string, string>,
  state: "failed" | "cancelled",
  except: number,
): NodeJobRef[] {
  const active: NodeJobRef[] = [];
  graphOf(hash).nodes.forEach((node, index) => {
    const current = hash[`n:${index}:state`];
    if (index === except || (current !== "active" && current !== "pending")) return;
    if (current === "active") active.push({ task: node.taskName, jobId: node.jobId });
    hash[`n:${index}:state`] = state;
  });
  return active;
}

/** Drops the oldest finished workflows beyond the store's workflow retention. */
function trimWorkflows(store: MemoryStore): void {
  let excess = store.workflows.size - store.workflowRetention;
  if (excess <= 0) return;
  for (const [id, hash] of store.workflows) {
    if (excess <= 0) break;
    if (hash.state === "running") continue;
    store.workflows.delete(id);
    excess--;
  }
}
