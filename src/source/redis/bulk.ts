/**
 * Bulk actions on jobs of one task: counting what a selection holds, and
 * one atomic step ({@link BULK_STEP}, one script call on the task's slot).
 * The operation that loops over the steps is the board's
 * (`src/bulk/operations.ts`), the same for every source.
 *
 * @module
 */

import {
  BULK_ACTION_STATES,
  type BulkAction,
  type BulkSelector,
  type BulkStep,
  type BulkStepResult,
  type JobState,
} from "../types.ts";
import { taskKeys } from "../wire/keys.ts";
import { BULK_STEP } from "./action_scripts.ts";
import { cancelKeys } from "./cancel.ts";
import type { RedisConnection } from "./client.ts";

/** The states of the named jobs, one HGET each, in one round trip (`""`: gone). */
async function statesOf(
  connection: RedisConnection,
  task: string,
  ids: readonly string[],
  prefix?: string,
): Promise<string[]> {
  const { jobPrefix } = taskKeys(task, prefix);
  const replies = await connection.pipeline(ids.map((id) => ["HGET", jobPrefix + id, "state"]));
  return replies.map((state) => typeof state === "string" ? state : "");
}

/**
 * How many of the named jobs are, right now, in a state `action` takes.
 * A whole-state selection is counted by the caller from the task's counts.
 */
export async function countNamed(
  connection: RedisConnection,
  action: BulkAction,
  selector: Extract<BulkSelector, { ids: string[] }>,
  prefix?: string,
): Promise<number> {
  const allowed: readonly string[] = BULK_ACTION_STATES[action];
  const states = await statesOf(connection, selector.task, selector.ids, prefix);
  return states.filter((state) => allowed.includes(state)).length;
}

/** Pairs `[a, b, c, d]` as `[[a, b], [c, d]]`. */
function pairs(flat: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
}

/** Runs one {@link BULK_STEP} on `task`'s slot. */
export async function bulkStep(
  connection: RedisConnection,
  task: string,
  action: BulkAction,
  step: BulkStep,
  reason = "",
  prefix?: string,
): Promise<BulkStepResult> {
  const keys = taskKeys(task, prefix);
  const byIds = "ids" in step;
  const args: (string | number)[] = [
    keys.jobPrefix,
    Date.now(),
    reason,
    action,
    byIds ? "ids" : "state",
    byIds ? "" : step.state,
    byIds ? 0 : step.offset,
    byIds ? step.ids.length : step.limit,
    BULK_ACTION_STATES[action].join(","),
    step.finishedBy ?? 0,
    ...(byIds ? step.ids : [step.most]),
  ];
  const [examined, kept, signalled, done, skipped] = await connection.call<
    [number, number, number, string[], string[]]
  >({
    script: BULK_STEP,
    keys: [
      ...cancelKeys(keys),
      keys.marker,
      keys.active,
      keys.completed,
      keys.failed,
      keys.expired,
    ],
    args,
  });
  return {
    examined,
    kept,
    signalled,
    done: pairs(done).map(([id, from]) => ({ id, from: from as JobState })),
    skipped: pairs(skipped).map(([id, state]) => ({
      id,
      state: state === "" ? null : state as JobState,
    })),
  };
}
