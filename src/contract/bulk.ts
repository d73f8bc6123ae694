/**
 * Bulk actions on many jobs of one task: what an operator selects (some
 * ids, every job in a state, or those of them matching a filter), what is done to them, and the tracked
 * operation that does it in atomic batches (`POST /bulk`,
 * `GET /operations/{id}`, `POST /operations/{id}/cancel`, the
 * `bulk:progress` event).
 *
 * @module
 */

import type { JobFilterQuery } from "./job_filter.ts";
import type { JobState } from "./states.ts";

/** What a bulk action does to each job. */
export type BulkAction = "retry" | "cancel" | "promote" | "delete";

/**
 * The states each action acts on; a job found in another state when its
 * batch runs (a worker moved it on) is skipped and reported.
 */
export const BULK_ACTION_STATES: Readonly<Record<BulkAction, readonly JobState[]>> = {
  retry: ["failed", "cancelled", "expired"],
  cancel: ["waiting", "delayed", "retrying", "active"],
  promote: ["delayed", "retrying"],
  delete: ["completed", "failed", "cancelled", "expired"],
};

/** Jobs acted on per atomic step (one script call on the task's slot). */
export const BULK_BATCH = 100;

/** Most ids one selector may name (a page or a few of them). */
export const MAX_BULK_IDS = 1000;

/** Some jobs of a task, by id. */
export interface BulkIdSelector {
  /** The task the jobs belong to. */
  task: string;
  /** Their ids, 1 to {@link MAX_BULK_IDS}. */
  ids: string[];
}

/** Every job of a task in one state. */
export interface BulkStateSelector {
  /** The task. */
  task: string;
  /** The state whose jobs are selected. */
  state: JobState;
}

/**
 * Every job of a task in one state that matches a filter, the one a search
 * of that state tab takes. The operation walks the state as the search
 * does, acting on each slice's matches, so it reads every job of the
 * (time) range once.
 */
export interface BulkFilterSelector extends BulkStateSelector {
  /** The filter; at least one part set. */
  filter: JobFilterQuery;
}

/** Which jobs a bulk action acts on. */
export type BulkSelector = BulkIdSelector | BulkStateSelector | BulkFilterSelector;

/** `POST /bulk`: the action, the jobs, and whether only to count them. */
export interface BulkRequest {
  /** What to do. */
  action: BulkAction;
  /** To which jobs. */
  selector: BulkSelector;
  /** Only count the jobs it would act on now. */
  dryRun?: boolean;
  /** A cancel's reason (cancel only). */
  reason?: string;
}

/** The answer to a dry run: how many jobs the action would act on now. */
export interface BulkPreviewResponse {
  ok: true;
  dryRun: true;
  task: string;
  action: BulkAction;
  count: number;
}

/** A job left alone, and the state it was in then (null: gone). */
export interface BulkSkip {
  /** The job's id. */
  id: string;
  /** Its state when the step ran; null when it was gone. */
  state: JobState | null;
}

/** Most skipped jobs an operation names (the rest are only counted). */
export const MAX_LISTED_SKIPS = 100;

/** Where an operation stands. */
export type OperationStatus = "running" | "done" | "cancelled" | "failed";

/** A tracked bulk operation, as `GET /operations/{id}` and `bulk:progress` show it. */
export interface BulkOperation {
  /** Its id (random). */
  id: string;
  /** The task it acts on. */
  task: string;
  /** What it does. */
  action: BulkAction;
  /** `ids` (how many), the state it selected, or that state and a filter. */
  selection: { ids: number } | { state: JobState } | { state: JobState; filter: JobFilterQuery };
  /** Who started it. */
  user: string;
  /**
   * The board replica that runs it (or last ran it): `<host>:<pid>:<4 hex>`,
   * so an operator can tell which process it is; null when none has yet.
   */
  runner: string | null;
  /** Where it stands. */
  status: OperationStatus;
  /**
   * Jobs it meant to act on when it started (the dry-run count); for a
   * filter, the jobs of the range it scans for matches.
   */
  total: number;
  /** Jobs of that range looked at so far (a filter); null for other selections. */
  scanned: number | null;
  /** Jobs it acted on. */
  done: number;
  /** Jobs it left alone (already changed by a worker, or gone). */
  skipped: number;
  /** The first {@link MAX_LISTED_SKIPS} of them. */
  skippedJobs: BulkSkip[];
  /** Active jobs whose worker was told to cancel them (cancel only; counted in `done`). */
  signalled: number;
  /** When it started (ms). */
  startedAt: number;
  /** When it finished (ms; null while running). */
  finishedAt: number | null;
  /** Why it failed, when it did. */
  error: string | null;
  /** The error code of that failure (`STORE_UNAVAILABLE`, `MIGRATION_IN_PROGRESS`…), else null. */
  errorCode: string | null;
}

/** The answer to `POST /bulk` (not a dry run): the operation, started. */
export interface BulkStartResponse {
  ok: true;
  task: string;
  operation: BulkOperation;
}
