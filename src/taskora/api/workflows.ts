/**
 * The App source's workflows: listed, read and cancelled through the
 * adapter, each node with its job's state.
 *
 * @module
 */

import { BoardError } from "../../errors.ts";
import { explainUnstarted } from "../../contract/workflow_holds.ts";
import { workflowNotFound } from "../../source/refusals.ts";
import type {
  WorkflowCancelResult,
  WorkflowDetail,
  WorkflowPage,
  WorkflowState,
} from "../../source/types.ts";
import { decodeJobState, decodeWorkflow } from "../../source/wire/decode.ts";
import { type AppApi, SCAN_LIMIT } from "./app_api.ts";

/** Workflows, through the App's adapter. */
export class AppWorkflows {
  readonly #api: AppApi;

  /** Reads and steers through `api`. */
  constructor(api: AppApi) {
    this.#api = api;
  }

  /** Workflows, newest first (the adapter answers them all; paged here). */
  async listWorkflows(offset: number, limit: number, state?: WorkflowState): Promise<WorkflowPage> {
    const all = await this.#api.adapter.listWorkflows(
      state,
      0,
      SCAN_LIMIT,
    ) as WorkflowPage["workflows"];
    return { workflows: all.slice(offset, offset + limit), total: all.length };
  }

  /** A workflow by id, or null. */
  async getWorkflow(id: string): Promise<WorkflowDetail | null> {
    const detail = await this.#api.adapter.getWorkflowDetail(id);
    if (!detail) return null;
    const hash: Record<string, string> = {
      state: detail.state,
      graph: JSON.stringify(detail.graph),
      createdAt: String(detail.createdAt),
    };
    if (detail.result !== null) hash.result = detail.result;
    if (detail.error !== null) hash.error = detail.error;
    for (const node of detail.nodes) {
      hash[`n:${node.index}:state`] = node.state;
      if (node.result !== null) hash[`n:${node.index}:result`] = node.result;
      if (node.error !== null) hash[`n:${node.index}:error`] = node.error;
    }
    const workflow = decodeWorkflow(id, hash);
    if (!workflow) return null;
    const states = await Promise.all(
      workflow.nodes.map((n) => this.#api.adapter.getState(n.taskName, n.jobId)),
    );
    workflow.nodes.forEach((node, i) => {
      node.jobState = states[i] ? decodeJobState(states[i]!) : null;
    });
    return explainUnstarted(workflow);
  }

  /** Cancels a running workflow through the adapter. */
  async cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult> {
    const before = await this.getWorkflow(id);
    if (!before) throw workflowNotFound(id);
    if (before.state !== "running") {
      throw new BoardError(
        "INVALID_STATE",
        `Workflow ${id} is ${before.state}; only running workflows can be cancelled`,
      );
    }
    await this.#api.adapter.cancelWorkflow(id, reason);
    const after = await this.getWorkflow(id);
    const changed = (after?.nodes ?? []).filter((node, i) =>
      node.jobState !== before.nodes[i].jobState
    );
    return {
      cancelled: changed.filter((n) => n.jobState === "cancelled").length,
      signalled: before.nodes.filter((n) => n.jobState === "active").length,
    };
  }
}
