/**
 * Cancelling a workflow: one script on the workflow hash (its own slot),
 * then one script per task of its unfinished nodes, all those in one
 * pipelined round trip.
 *
 * @module
 */

import type { WorkflowCancelResult } from "../types.ts";
import { taskKeys, workflowKey } from "../wire/keys.ts";
import { CANCEL_NODE_JOBS, CANCEL_WORKFLOW } from "./action_scripts.ts";
import { cancelKeys } from "./cancel.ts";
import type { Command, RedisConnection } from "./client.ts";
import { cannotCancelWorkflow, workflowNotFound } from "../refusals.ts";

/** The reason node jobs get when none is given (taskora's WorkflowHandle.cancel uses it). */
export const DEFAULT_NODE_REASON = "workflow cancelled";

/**
 * Cancels a running workflow the way taskora's WorkflowHandle.cancel does:
 * {@link CANCEL_WORKFLOW} marks the workflow and its unfinished nodes
 * cancelled (`error` = the reason, when given), so no further node is
 * dispatched; then each task's node jobs are cancelled by
 * {@link CANCEL_NODE_JOBS} with the reason (default `workflow cancelled`):
 * waiting, delayed and retrying jobs at once, active ones signalled, and
 * finished ones left alone. `WORKFLOW_NOT_FOUND` for an unknown id,
 * `INVALID_STATE` naming the state for a finished workflow.
 */
export async function cancelWorkflow(
  connection: RedisConnection,
  id: string,
  reason: string | undefined,
  prefix?: string,
): Promise<WorkflowCancelResult> {
  const [outcome, ...rest] = await connection.call<string[]>({
    script: CANCEL_WORKFLOW,
    keys: [workflowKey(id, prefix)],
    args: [reason ?? ""],
  });
  if (outcome === "missing") {
    throw workflowNotFound(id);
  }
  if (outcome === "refused") {
    throw cannotCancelWorkflow(id, rest[0]);
  }

  const byTask = new Map<string, string[]>();
  for (let i = 0; i + 1 < rest.length; i += 2) {
    const jobs = byTask.get(rest[i]) ?? [];
    jobs.push(rest[i + 1]);
    byTask.set(rest[i], jobs);
  }
  const now = Date.now();
  const calls: Command[] = [...byTask].map(([task, jobIds]) => {
    const keys = taskKeys(task, prefix);
    return {
      script: CANCEL_NODE_JOBS,
      keys: cancelKeys(keys),
      args: [keys.jobPrefix, now, reason ?? DEFAULT_NODE_REASON, ...jobIds],
    };
  });
  const replies = (await connection.pipeline(calls)) as [number, number][];
  return replies.reduce(
    (sum, [cancelled, signalled]) => ({
      cancelled: sum.cancelled + cancelled,
      signalled: sum.signalled + signalled,
    }),
    { cancelled: 0, signalled: 0 },
  );
}
