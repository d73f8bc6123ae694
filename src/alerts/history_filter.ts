/**
 * Which notices of the alert history `GET /alerts/history` answers: those
 * of one rule, about one task, in one state. The history keeps at most
 * `ALERT_HISTORY_ENTRIES` notices, so a filter reads them all and keeps the
 * newest that match.
 *
 * @module
 */

import type { AlertHistoryEntry } from "../contract/alerts.ts";

/** What the history is narrowed to; an absent field narrows nothing. */
export interface AlertHistoryFilter {
  /** The rule's name. */
  rule?: string;
  /** The task the notice is about. */
  task?: string;
  /** `firing` (repeats included) or `resolved`. */
  state?: "firing" | "resolved";
}

/** Whether `filter` narrows anything. */
export function filters(filter: AlertHistoryFilter): boolean {
  return filter.rule !== undefined || filter.task !== undefined || filter.state !== undefined;
}

/**
 * The first `limit` of `entries` (newest first) that `filter` keeps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { filterHistory } from "./history_filter.ts";
 * const entry = (rule: string) => ({ notice: { rule, task: "mail", state: "firing" } }) as never;
 * assert.equal(filterHistory([entry("a"), entry("b")], { rule: "b" }, 10).length, 1);
 * ```
 */
export function filterHistory(
  entries: readonly AlertHistoryEntry[],
  { rule, task, state }: AlertHistoryFilter,
  limit: number,
): AlertHistoryEntry[] {
  return entries.filter(({ notice }) =>
    (rule === undefined || notice.rule === rule) &&
    (task === undefined || notice.task === task) &&
    (state === undefined || notice.state === state)
  ).slice(0, limit);
}
