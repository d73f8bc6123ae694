/**
 * Bulk actions on a memory store: one step acts on a batch of jobs at
 * once (nothing else runs meanwhile, as one Redis script), each job's state
 * checked first, as the Redis source's `BULK_STEP` does.
 *
 * @module
 */

import {
  BULK_ACTION_STATES,
  type BulkAction,
  type BulkSelector,
  type BulkStep,
  type BulkStepResult,
  FINISHED_STATES,
  type FinishedState,
  type JobState,
} from "../types.ts";
import type { MemoryStore, TaskQueue } from "./store.ts";

/** The members `offset` to `offset + limit - 1` of a state's list or set. */
function membersOf(queue: TaskQueue, state: JobState, offset: number, limit: number): string[] {
  switch (state) {
    case "waiting": {
      const fromWait = queue.wait.slice(offset, offset + limit);
      const rest = limit - fromWait.length;
      if (rest === 0) return fromWait;
      return [
        ...fromWait,
        ...queue.prioritized.range(Math.max(0, offset - queue.wait.length), rest),
      ];
    }
    case "active":
      return queue.active.slice(offset, offset + limit);
    case "delayed":
    case "retrying":
      return queue.delayed.range(offset, limit);
    default:
      return queue.finished[state].range(offset, limit);
  }
}

/** Acts on one job in a state the action takes; returns whether it stays in place (signalled). */
function act(
  store: MemoryStore,
  queue: TaskQueue,
  id: string,
  state: JobState,
  action: BulkAction,
  reason: string,
): boolean {
  switch (action) {
    case "retry":
      store.retry(queue.name, id);
      return false;
    case "cancel":
      return store.cancel(queue.name, id, reason, { stampCancelledAt: true }) === "flagged";
    case "promote":
      store.promote(queue.name, id);
      return false;
    case "delete":
      if ((FINISHED_STATES as readonly string[]).includes(state)) {
        queue.finished[state as FinishedState].remove(id);
        store.deleteJob(queue.name, id);
      }
      return false;
  }
}

/** Whether a finished job finished after `finishedBy` (see `BulkStep`): a worker ran it again. */
function finishedAgain(
  queue: TaskQueue,
  id: string,
  state: JobState,
  action: BulkAction,
  finishedBy: number | undefined,
): boolean {
  if (!finishedBy || action === "cancel") return false;
  if (!(FINISHED_STATES as readonly string[]).includes(state)) return false;
  return (queue.finished[state as FinishedState].score(id) ?? 0) > finishedBy;
}

/** How many of the named jobs are in a state `action` takes now. */
export function countNamed(
  queue: TaskQueue,
  action: BulkAction,
  selector: Extract<BulkSelector, { ids: string[] }>,
): number {
  const allowed: readonly string[] = BULK_ACTION_STATES[action];
  return selector.ids.filter((id) => allowed.includes(queue.jobs.get(id)?.state ?? "")).length;
}

/** One step of a bulk action on `queue`. */
export function bulkStep(
  store: MemoryStore,
  queue: TaskQueue,
  action: BulkAction,
  step: BulkStep,
  reason = "",
): BulkStepResult {
  const allowed: readonly string[] = BULK_ACTION_STATES[action];
  const byIds = "ids" in step;
  const ids = byIds ? step.ids : membersOf(queue, step.state, step.offset, step.limit);
  const most = byIds ? ids.length : step.most;
  const result: BulkStepResult = {
    examined: 0,
    kept: 0,
    done: [],
    signalled: 0,
    skipped: [],
  };
  for (const id of ids) {
    if (result.done.length >= most) break;
    result.examined++;
    const state = queue.jobs.get(id)?.state;
    if (
      !state || !allowed.includes(state) || (!byIds && state !== step.state) ||
      finishedAgain(queue, id, state, action, step.finishedBy)
    ) {
      if (byIds) result.skipped.push({ id, state: state ?? null });
      else result.kept++;
      continue;
    }
    if (act(store, queue, id, state, action, reason)) {
      result.signalled++;
      result.kept++;
    }
    result.done.push({ id, from: state });
  }
  return result;
}
