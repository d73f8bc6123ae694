/**
 * The Redis source's workflows: a page of the index kept in the background, one workflow,
 * and its cancel.
 *
 * @module
 */

import type {
  WorkflowCancelResult,
  WorkflowDetail,
  WorkflowPage,
  WorkflowState,
} from "../../types.ts";
import { cancelWorkflow } from "../workflow_cancel.ts";
import { getWorkflow, listWorkflows } from "../workflows.ts";
import type { RedisContext } from "../context.ts";

/** Workflows, in Redis. */
export class RedisWorkflows {
  readonly #redis: RedisContext;

  /** Reads and steers through `redis`. */
  constructor(redis: RedisContext) {
    this.#redis = redis;
  }

  /** Workflows (only those in `state`, when given), newest first. */
  async listWorkflows(
    offset: number,
    limit: number,
    state?: WorkflowState,
  ): Promise<WorkflowPage> {
    await this.#redis.ready();
    return await listWorkflows(
      this.#redis.connection,
      this.#redis.workflows,
      offset,
      limit,
      this.#redis.prefix,
      state,
    );
  }

  /** A workflow by id, or null. */
  async getWorkflow(id: string): Promise<WorkflowDetail | null> {
    await this.#redis.ready();
    const workflow = await getWorkflow(this.#redis.connection, id, this.#redis.prefix);
    this.#redis.recentIds.note(
      workflow?.nodes.map((n) => ({ id: n.jobId, task: n.taskName })) ?? [],
    );
    return workflow;
  }

  /** Cancels a running workflow and its unfinished node jobs; see `workflow_cancel.ts`. */
  async cancelWorkflow(id: string, reason?: string): Promise<WorkflowCancelResult> {
    await this.#redis.ready();
    const result = await cancelWorkflow(this.#redis.connection, id, reason, this.#redis.prefix);
    this.#redis.workflows.note(id, "cancelled");
    return result;
  }
}
