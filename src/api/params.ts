/**
 * Parsing of query parameters, with a 400 `INVALID_PARAM` that names the
 * parameter and what it allows.
 *
 * @module
 */

import { invalidParam } from "../errors.ts";
import {
  JOB_STATES,
  type JobState,
  WORKFLOW_STATES,
  type WorkflowState,
} from "../contract/states.ts";

/** The largest page a list endpoint serves. */
export const MAX_LIMIT = 1000;

/** Parses a non-negative integer parameter, or returns the fallback when absent. */
export function integerParam(
  name: string,
  raw: string | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw invalidParam(name, `must be a non-negative integer (got "${raw}")`);
  const value = Number(raw);
  if (value > max) throw invalidParam(name, `must be at most ${max} (got ${raw})`);
  return value;
}

/** Parses `limit` (1–1000, default 20) and `offset` (default 0). */
export function pageParams(
  query: (name: string) => string | undefined,
  defaultLimit = 20,
): { limit: number; offset: number } {
  const limit = integerParam("limit", query("limit"), defaultLimit, MAX_LIMIT);
  if (limit === 0) throw invalidParam("limit", "must be at least 1 (got 0)");
  return { limit, offset: integerParam("offset", query("offset"), 0) };
}

/** Checks `raw` against the values a `state` parameter allows. */
function oneOfStates<T extends string>(raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) {
    throw invalidParam("state", `must be one of ${allowed.join(", ")} (got "${raw}")`);
  }
  return raw as T;
}

/** Parses a job state (default `waiting`). */
export function stateParam(raw: string | undefined): JobState {
  return raw === undefined || raw === "" ? "waiting" : oneOfStates(raw, JOB_STATES);
}

/** Parses an optional workflow state filter (absent or empty: every state). */
export function workflowStateParam(raw: string | undefined): WorkflowState | undefined {
  return raw === undefined || raw === "" ? undefined : oneOfStates(raw, WORKFLOW_STATES);
}
