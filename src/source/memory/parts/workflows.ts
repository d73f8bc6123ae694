/**
 * The memory source's workflows: newest first, one in full with each
 * node's job state, cancelled through `../workflow_actions.ts`.
 *
 * @module
 */

import { explainUnstarted } from "../../../contract/workflow_holds.ts";
import type {
  WorkflowCancelResult,
  WorkflowDetail,
  WorkflowPage,
  WorkflowState,
  WorkflowSummary,
} from "../../types.ts";
import { decodeWorkflow } from "../../wire/decode.ts";
import type { MemoryStore } from "../store.ts";
import { cancelWorkflow } from "../workflow_actions.ts";
import { workflowsOf } from "./reads.ts";

/** Workflows of the store. */
export class MemoryWorkflows {
  readonly #store: MemoryStore;

  /** Reads and changes `store`. */
  constructor(store: MemoryStore) {
    this.#store = store;
  }

  /** Workflows (only those in `state`, when given), newest first. */
  listWorkflows(offset: number, limit: number, state?: WorkflowState): Promise<WorkflowPage> {
    const all = workflowsOf(this.#store)
      .filter((workflow) => state === undefined || workflow.state === state)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    const workflows: WorkflowSummary[] = all.slice(offset, offset + limit).map((
      { id, name, state, createdAt, nodeCount, tasks },
    ) => ({ id, name, state, createdAt, nodeCount, tasks }));
    return Promise.resolve({ workflows, total: all.length });
  }

  /** A workflow in full, with each node's job state, or null. */
  getWorkflow(id: string): Promise<WorkflowDetail | null> {
    const hash = this.#store.workflows.get(id);
    const workflow = hash ? decodeWorkflow(id, hash) : null;
    for (const node of workflow?.nodes ?? []) {
      node.jobState = this.#store.tasks.get(node.taskName)?.jobs.get(node.jobId)?.state ?? null;
    }
    return Promise.resolve(workflow && explainUnstarted(workflow));
  }

  /** Cancels a running workflow and its unfinished node jobs. */
  cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult> {
    return Promise.try(() => cancelWorkflow(this.#store, id, reason));
  }
}
