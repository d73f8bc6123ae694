/**
 * Reading a bulk request's `selector` from a JSON body (against its `action`), each
 * mistake a 400 `INVALID_PARAM` naming the field. A filter on a whole-state
 * selection (time range, error text, payload) is parsed here when one is
 * supported; until then one is refused rather than ignored.
 *
 * @module
 */

import {
  BULK_ACTION_STATES,
  type BulkAction,
  type BulkSelector,
  MAX_BULK_IDS,
} from "../contract/bulk.ts";
import { JOB_STATES, type JobState } from "../contract/states.ts";
import { invalidParam } from "../errors.ts";
import { listOr } from "../source/refusals.ts";
import { MAX_JOB_ID_LENGTH } from "./params.ts";

const SELECTOR_FIELDS = ["task", "ids", "state", "filter"];

function idsOf(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BULK_IDS) {
    throw invalidParam("selector.ids", `must be an array of 1 to ${MAX_BULK_IDS} job IDs`);
  }
  for (const id of value) {
    if (typeof id !== "string" || id.length === 0 || id.length > MAX_JOB_ID_LENGTH) {
      throw invalidParam(
        "selector.ids",
        `each must be a string of 1 to ${MAX_JOB_ID_LENGTH} characters (got ${
          JSON.stringify(id)?.slice(0, 80)
        })`,
      );
    }
  }
  return [...new Set(value as string[])];
}

/** The `selector` field, checked against what `action` acts on. */
export function bulkSelector(value: unknown, action: BulkAction): BulkSelector {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidParam("selector", "must be { task, ids } or { task, state }");
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !SELECTOR_FIELDS.includes(key));
  if (unknown.length > 0) {
    throw invalidParam("selector", `unknown field ${unknown.join(", ")}`);
  }
  const { task } = fields;
  if (typeof task !== "string" || task.length === 0) {
    throw invalidParam("selector.task", "must be the name of a task");
  }
  if (("ids" in fields) === ("state" in fields)) {
    throw invalidParam("selector", "needs either ids (some jobs) or state (every job in it)");
  }
  if ("ids" in fields) {
    if ("filter" in fields) throw invalidParam("selector.filter", "applies to a state, not to ids");
    return { task, ids: idsOf(fields.ids) };
  }
  const state = fields.state;
  const allowed: readonly string[] = BULK_ACTION_STATES[action];
  if (typeof state !== "string" || !(JOB_STATES as readonly string[]).includes(state)) {
    throw invalidParam("selector.state", `must be a job state (got ${JSON.stringify(state)})`);
  }
  if (!allowed.includes(state)) {
    throw invalidParam(
      "selector.state",
      `${action} acts on ${listOr(allowed)} jobs, not on ${state} ones`,
    );
  }
  if (fields.filter !== undefined) {
    throw invalidParam(
      "selector.filter",
      "no filter is supported yet: select ids or a whole state",
    );
  }
  return { task, state: state as JobState };
}
