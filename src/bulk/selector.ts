/**
 * Reading a bulk request's `selector` from a JSON body (against its `action`), each
 * mistake a 400 `INVALID_PARAM` naming the field. A filter on a state is
 * parsed as the search parses its query string (`job_filter.ts`), so "every
 * job matching this filter" is the very set the search found.
 *
 * @module
 */

import {
  BULK_ACTION_STATES,
  type BulkAction,
  type BulkIdSelector,
  type BulkStateSelector,
  MAX_BULK_IDS,
} from "../contract/bulk.ts";
import { JOB_FILTER_PARAMS, type JobFilter, type JobFilterQuery } from "../contract/job_filter.ts";
import { JOB_STATES, type JobState } from "../contract/states.ts";
import { invalidParam } from "../errors.ts";
import { listOr } from "../source/refusals.ts";
import { isEmptyFilter, parseJobFilter } from "../search/job_filter.ts";
import { MAX_JOB_ID_LENGTH } from "../contract/jobs.ts";

/** The jobs of a state matching a filter: the filter parsed, and as it was given. */
export interface FilterSelection extends BulkStateSelector {
  /** The parsed filter, at least one part set. */
  filter: JobFilter;
  /** The filter as the request gave it, echoed in the operation. */
  query: JobFilterQuery;
}

/** A selector as the board acts on it. */
export type ParsedSelector = BulkIdSelector | BulkStateSelector | FilterSelection;

/** Whether a selector carries a filter. */
export function isFilterSelection(selector: ParsedSelector): selector is FilterSelection {
  return "filter" in selector;
}

function filterQueryOf(value: unknown): JobFilterQuery {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidParam(
      "selector.filter",
      `must be an object of the search's parameters (${JOB_FILTER_PARAMS.join(", ")})`,
    );
  }
  const query: JobFilterQuery = {};
  for (const [key, raw] of Object.entries(value)) {
    if (!(JOB_FILTER_PARAMS as readonly string[]).includes(key)) {
      throw invalidParam(
        "selector.filter",
        `unknown field ${key} (known: ${JOB_FILTER_PARAMS.join(", ")})`,
      );
    }
    if (typeof raw !== "string") {
      throw invalidParam(`selector.filter.${key}`, "must be a string, as in the search's URL");
    }
    query[key as keyof JobFilterQuery] = raw;
  }
  return query;
}

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

/**
 * The `selector` field, checked against what `action` acts on. `redact` is
 * the board's redaction keys: a filter's key path through one is refused,
 * as in the search.
 */
export function bulkSelector(
  value: unknown,
  action: BulkAction,
  redact: readonly string[],
): ParsedSelector {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw invalidParam(
      "selector",
      "must be { task, ids }, { task, state } or { task, state, filter }",
    );
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
  const selected = { task, state: state as JobState };
  if (fields.filter === undefined) return selected;
  const query = filterQueryOf(fields.filter);
  const filter = parseJobFilter(
    (name) => query[name as keyof JobFilterQuery],
    redact,
    "selector.filter.",
  );
  // No part set: the whole state, counted and acted on as such.
  return isEmptyFilter(filter) ? selected : { ...selected, filter, query };
}
