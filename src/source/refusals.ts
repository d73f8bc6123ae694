/**
 * The refusals both sources give, worded once so the memory demo and a real
 * Redis answer an operator the same way.
 *
 * @module
 */

import { BoardError, invalidParam } from "../errors.ts";
import { CANCELLABLE_STATES, FINISHED_STATES, type FinishedState } from "./types.ts";

/** "a", "a or b", "a, b or c". */
export function listOr(words: readonly string[]): string {
  return words.length <= 1
    ? words.join("")
    : `${words.slice(0, -1).join(", ")} or ${words[words.length - 1]}`;
}

/** `TASK_NOT_FOUND`. */
export function taskNotFound(task: string): BoardError {
  return new BoardError("TASK_NOT_FOUND", `Task "${task}" not found`);
}

/** `JOB_NOT_FOUND`. */
export function jobNotFound(jobId: string): BoardError {
  return new BoardError("JOB_NOT_FOUND", `Job "${jobId}" not found`);
}

/** `SCHEDULE_NOT_FOUND`. */
export function scheduleNotFound(name: string): BoardError {
  return new BoardError("SCHEDULE_NOT_FOUND", `Schedule "${name}" not found`);
}

/** `WORKFLOW_NOT_FOUND`. */
export function workflowNotFound(id: string): BoardError {
  return new BoardError("WORKFLOW_NOT_FOUND", `Workflow "${id}" not found`);
}

/** `INVALID_STATE`: the job is not in a state it can be retried from. */
export function cannotRetry(
  jobId: string,
  state: string | undefined,
  allowed: readonly string[],
): BoardError {
  return new BoardError(
    "INVALID_STATE",
    `Job ${jobId} is ${state ?? "gone"}; only ${listOr(allowed)} jobs can be retried`,
  );
}

/** `INVALID_STATE`: the job has finished. */
export function cannotCancel(jobId: string, state: string | undefined): BoardError {
  return new BoardError(
    "INVALID_STATE",
    `Job ${jobId} is ${state ?? "gone"}; only ${listOr(CANCELLABLE_STATES)} jobs can be cancelled`,
  );
}

/** `INVALID_STATE`: the workflow has finished. */
export function cannotCancelWorkflow(id: string, state: string | undefined): BoardError {
  return new BoardError(
    "INVALID_STATE",
    `Workflow ${id} is ${state ?? "gone"}; only running workflows can be cancelled`,
  );
}

/**
 * Refuses a clean of a state that is not a finished one, or with a negative
 * or non-finite age (`INVALID_PARAM`).
 */
export function assertCleanable(state: FinishedState, olderThanMs: number): void {
  if (!(FINISHED_STATES as readonly string[]).includes(state)) {
    throw invalidParam(
      "state",
      `${JSON.stringify(state)} is not one of ${listOr(FINISHED_STATES)}`,
    );
  }
  if (!Number.isFinite(olderThanMs) || olderThanMs < 0) {
    throw invalidParam("olderThan", "must be a number of milliseconds, 0 or more");
  }
}

/**
 * `VERSION_UNKNOWN`: a dispatch without the App (a trigger, a re-run) for a
 * task with no job left to learn its version from; `refused` says what was
 * not done, e.g. `Schedule "nightly" was not triggered`.
 */
export function versionUnknown(refused: string, task: string): BoardError {
  return new BoardError(
    "VERSION_UNKNOWN",
    `${refused}: no job of task "${task}" is left to learn its ` +
      "version from, and a guessed _v makes a job that fails at once or is migrated again. " +
      "Embed the board with the taskora App (createBoard(app)) to dispatch through it.",
  );
}
