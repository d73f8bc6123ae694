/**
 * Deciding whether a search candidate matches its payload condition, on the
 * value as the board shows it: formatted and redacted by the presenter. A
 * redacted value reads `[REDACTED]` here as on every page, so a substring
 * search cannot tell what it hides (a key path through a redacted key is
 * refused earlier, in `job_filter.ts`).
 *
 * @module
 */

import {
  asciiLower,
  type JobFilter,
  type PayloadCondition,
  valueAtPath,
} from "../contract/job_filter.ts";
import type { JobRow, LogEntry } from "../contract/jobs.ts";
import type { Presenter } from "../contract/present.ts";
import type { SearchCandidate, SearchSlice } from "../source/types.ts";

function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

function holds(condition: PayloadCondition, value: unknown): boolean {
  if ("contains" in condition) {
    // Inside a JSON text a quote or a newline of a string is escaped: look for both forms.
    const text = asciiLower(textOf(value));
    const needle = asciiLower(condition.contains);
    return text.includes(needle) || text.includes(JSON.stringify(needle).slice(1, -1));
  }
  const leaf = valueAtPath(value, condition.path);
  if (typeof leaf === "string") return leaf === condition.value;
  if (leaf === null || typeof leaf === "number" || typeof leaf === "boolean") {
    return JSON.stringify(leaf) === condition.value;
  }
  return false;
}

/** An error that is JSON (taskora stores some that way) as its value, so a key path can reach in. */
function errorValue(message: string): unknown {
  try {
    return JSON.parse(message);
  } catch {
    return message;
  }
}

/** Whether a candidate's presented field meets the condition. */
function matchesCondition(
  condition: PayloadCondition,
  candidate: SearchCandidate,
  present: Presenter,
): boolean {
  const { job, value } = candidate;
  switch (condition.field) {
    case "data":
      return holds(condition, present.data(value, job.task));
    case "result":
      return holds(condition, present.result(value, job.task));
    case "error":
      return typeof value === "string" && holds(condition, errorValue(present.error(value)));
    case "logs":
      return Array.isArray(value) &&
        (value as LogEntry[]).some((entry) => holds(condition, present.value(entry)));
  }
}

/** The candidates of a search slice that match its filter, checked on their presented value. */
export function matchingCandidates(
  filter: JobFilter,
  slice: SearchSlice,
  present: Presenter,
): SearchCandidate[] {
  const { payload } = filter;
  return slice.candidates.filter((candidate) =>
    payload === null || matchesCondition(payload, candidate, present)
  );
}

/** The jobs of a search slice that match its filter. */
export function matchesOf(filter: JobFilter, slice: SearchSlice, present: Presenter): JobRow[] {
  return matchingCandidates(filter, slice, present).map((candidate) => candidate.job);
}
