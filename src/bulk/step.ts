/**
 * One step of a bulk operation from its saved cursor: one atomic
 * {@link TaskSource.bulkStep} of at most {@link BULK_BATCH} jobs, or the read
 * of a filter's next slice. The runner saves the cursor it returns after
 * every step, so another replica goes on from there.
 *
 * Why a runner that dies after a step acted but before its cursor was saved
 * acts on no job twice and skips none, per selection (the next runner
 * repeats that step from the older cursor):
 * - ids: the same ids again. Each job's state is checked inside the step's
 *   script, and those acted on have left the states the action takes: they
 *   are skipped, not acted on again.
 * - a state: the same offset again. The jobs acted on have left the state's
 *   list or set; those kept are still there, in front, and are looked at
 *   again; the members after them are where the lost step would have gone on.
 * - a filter: the saved slice's same ids (as ids, above); those acted on
 *   are skipped and counted as having left the state, so the next slice
 *   starts where it would have.
 * A job the lost step retried may have been run and failed again by a
 * worker before the repeat: every step passes `finishedBy` (the
 * operation's start), so a job that finished after it is left alone.
 * What a repeat cannot restore is the count: jobs the lost step acted on
 * show as skipped.
 *
 * @module
 */

import {
  BULK_BATCH,
  type BulkAction,
  type BulkOperation,
  MAX_LISTED_SKIPS,
} from "../contract/bulk.ts";
import { BoardError } from "../errors.ts";
import type { OperationCursor } from "../store/operation_store.ts";
import { positionAfterRemoving } from "../source/search_position.ts";
import type { BulkStep, TaskSource } from "../source/types.ts";
import type { MatchReader } from "./filter.ts";
import type { ParsedSelector } from "./selector.ts";

/** What a step acts with. */
export interface StepContext {
  source: TaskSource;
  action: BulkAction;
  selector: ParsedSelector;
  reason: string | null;
  /** Reads a filter selection's matches (a filter selection only). */
  matches?: MatchReader;
}

/** Lets timers and other requests run between two steps (a memory step never awaits I/O). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Where an operation on `selector` starts. */
export function firstCursor(selector: ParsedSelector, hasFilter: boolean): OperationCursor {
  if ("ids" in selector) return { ids: 0 };
  if (hasFilter) return { position: null, slice: null, index: 0, left: 0 };
  return { offset: 0 };
}

/** One atomic step on the task, its counts added to `operation`. */
async function act(context: StepContext, operation: BulkOperation, step: BulkStep) {
  await nextTurn();
  const lock = await context.source.readLocks?.({ kind: "migration" });
  if (lock) {
    throw new BoardError(
      "MIGRATION_IN_PROGRESS",
      "taskora started migrating the keyspace: the operation stopped, as every taskora " +
        "process halts its writes then",
    );
  }
  const result = await context.source.bulkStep!(
    operation.task,
    context.action,
    // A job a worker ran and finished again since the operation started is a new one: left.
    { ...step, finishedBy: operation.startedAt },
    context.reason ?? undefined,
  );
  operation.done += result.done.length;
  operation.signalled += result.signalled;
  operation.skipped += result.skipped.length;
  const room = MAX_LISTED_SKIPS - operation.skippedJobs.length;
  if (room > 0) operation.skippedJobs.push(...result.skipped.slice(0, room));
  return result;
}

/**
 * Runs the step at `cursor`, adding what it did to `operation`; returns the
 * next cursor, or null when the operation has done all it meant to.
 */
export async function runStep(
  context: StepContext,
  operation: BulkOperation,
  cursor: OperationCursor,
): Promise<OperationCursor | null> {
  const { selector } = context;
  if ("ids" in cursor) {
    const ids = "ids" in selector ? selector.ids : [];
    const next = cursor.ids + BULK_BATCH;
    if (cursor.ids < ids.length) {
      await act(context, operation, { ids: ids.slice(cursor.ids, next) });
    }
    return next < ids.length ? { ids: next } : null;
  }
  if ("offset" in cursor) {
    // Jobs that arrive while it runs are left: it stops once it has acted on `total`.
    if ("ids" in selector || operation.done >= operation.total) return null;
    // Members of another state are passed over: look at a full batch, act on what is left.
    const most = operation.total - operation.done;
    const result = await act(context, operation, {
      state: selector.state,
      offset: cursor.offset,
      limit: BULK_BATCH,
      most,
    });
    const offset = cursor.offset + result.kept;
    return result.examined < BULK_BATCH || operation.done >= operation.total ? null : { offset };
  }
  const { slice } = cursor;
  if (slice !== null && cursor.index < slice.ids.length) {
    const next = cursor.index + BULK_BATCH;
    const result = await act(context, operation, { ids: slice.ids.slice(cursor.index, next) });
    // Signalled active jobs stay until their worker stops them; skipped ones were moved on.
    const left = result.done.length - result.signalled + result.skipped.length;
    return { ...cursor, index: next, left: cursor.left + left };
  }
  // Slice by slice as the search goes; what a slice's actions removed moves the next one back.
  const position = slice === null
    ? cursor.position
    : slice.next && "state" in selector
    ? positionAfterRemoving(selector.state, slice.next, cursor.left)
    : null;
  if (slice !== null && position === null) return null;
  await nextTurn();
  const read = await context.matches!(position);
  operation.scanned = (operation.scanned ?? 0) + read.scanned;
  return { position, slice: { ids: read.ids, next: read.next }, index: 0, left: 0 };
}
